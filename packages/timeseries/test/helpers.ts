import { ALL_PRIVILEGES } from '@mds/auth';
import { isApiError, parseActionParams, type Actor, type ApiError, type RestliAction } from '@mds/schema';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { documentId } from '../src/identity.ts';
import { createTimeseries, type Timeseries } from '../src/index.ts';
import type { TaskRef, TaskStatus, TimeseriesDocument, TimeseriesStore, TruncationRequest } from '../src/port.ts';

export const INDEX = 'dataset_datasetprofileaspect_v1';
export const OTHER_INDEX = 'dashboard_dashboardusagestatisticsaspect_v1';

export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'mds-timeseries-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A fresh embedded time-series package for every test of the calling suite, closed and deleted after it. */
export function embeddedPerTest(): { readonly timeseries: Timeseries } {
  let current: { timeseries: Timeseries; remove: () => void } | undefined;
  beforeEach(async () => {
    const { dir, remove } = tempDir();
    current = { timeseries: await createTimeseries({ dataDir: dir, config: { backend: 'embedded', indexPrefix: '' } }), remove };
  });
  afterEach(async () => {
    await current!.timeseries.module.close?.();
    current!.remove();
  });
  return {
    get timeseries() {
      return current!.timeseries;
    },
  };
}

export const admin: Actor = { urn: 'urn:li:corpuser:datahub', privileges: ALL_PRIVILEGES };
export const reader: Actor = { urn: 'urn:li:corpuser:reader', privileges: new Set(['GENERATE_PERSONAL_ACCESS_TOKENS']) };
export const actorWith = (...privileges: string[]): Actor => ({ urn: 'urn:li:corpuser:someone', privileges: new Set(privileges) });

/** A document as ingestion would build it, `n` giving its timestamp and making it unique. */
export function doc(n: number, options: { index?: string; urn?: string; payload?: string } = {}): TimeseriesDocument {
  const identity = {
    timestampMillis: n,
    eventGranularity: null,
    urn: options.urn ?? `urn:li:dataset:(urn:li:dataPlatform:hive,db.t${n % 7},PROD)`,
    messageId: null,
    partitionSpec: null,
  };
  return {
    index: options.index ?? INDEX,
    id: documentId(identity),
    ...identity,
    runId: null,
    eventJson: JSON.stringify({ timestampMillis: n, rowCount: n * 3, note: options.payload ?? 'x'.repeat(40) }),
    systemMetadataJson: null,
  };
}

/** Documents with timestamps from..to inclusive, written in batches. */
export async function writeRange(store: TimeseriesStore, from: number, to: number, index = INDEX): Promise<void> {
  const batch: TimeseriesDocument[] = [];
  for (let n = from; n <= to; n++) {
    batch.push(doc(n, { index }));
    if (batch.length === 10_000) await store.write(batch.splice(0));
  }
  await store.write(batch);
}

/** A truncation request with the tests' usual settings (INDEX, delete, batches of 100, 30 s); give what the test is about. */
export const truncation = (request: Pick<TruncationRequest, 'endTimeMillis'> & Partial<TruncationRequest>): TruncationRequest => ({
  index: INDEX,
  mode: 'delete',
  batchSize: 100,
  timeoutSeconds: 30,
  ...request,
});

export function refOf(taskId: string): TaskRef {
  const [node, id] = taskId.split(':');
  return { node: node!, id: Number(id) };
}

export async function waitForTask(store: TimeseriesStore, taskId: string, timeoutMs = 20_000): Promise<TaskStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await store.taskStatus(refOf(taskId));
    if (status?.completed) return status;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still running: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until the task has done at least one batch (so a crash lands mid-task). */
export async function waitForProgress(store: TimeseriesStore, taskId: string, key: 'deleted' | 'created' = 'deleted') {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const status = await store.taskStatus(refOf(taskId));
    if (Number(status?.status[key]) > 0 && status?.completed === false) return status;
    if (status?.completed || Date.now() > deadline) throw new Error(`no progress seen: ${JSON.stringify(status)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs a Rest.li action as the host does: body validation, then the handler with the actor. */
export async function callAction(actions: RestliAction[], name: string, body: unknown, actor: Actor = admin): Promise<unknown> {
  const action = actions.find((a) => a.name === name);
  if (!action) throw new Error(`no action ${name}`);
  return action.handler(parseActionParams(action, body), { actor, requestId: 'test' });
}

/** The ApiError a call fails with. */
export async function apiError(call: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  try {
    await (typeof call === 'function' ? call() : call);
  } catch (error) {
    if (isApiError(error)) return error;
    throw error;
  }
  expect.fail('expected an ApiError');
}
