import type { ApiClient } from './live';

// Time-series documents whose identity is their timestamp (one entity, distinct timestamps), so "is every
// acknowledged document there" is a count over a timestamp range, answered by a dry-run truncation.
export const T0 = Date.UTC(2026, 0, 1);
export const ENTITY = 'urn:li:dataset:(urn:li:dataPlatform:hive,robustness.table,PROD)';
export const INDEX = 'dataset_datasetprofileaspect_v1';
const TARGET = { entityType: 'dataset', aspect: 'datasetProfile' };

export function profileProposal(timestampMillis: number, padding = 0) {
  return {
    entityType: 'dataset',
    entityUrn: ENTITY,
    changeType: 'UPSERT',
    aspectName: 'datasetProfile',
    aspect: {
      contentType: 'application/json',
      value: JSON.stringify({ timestampMillis, rowCount: timestampMillis % 1000, columnCount: 3, ...(padding && { note: 'x'.repeat(padding) }) }),
    },
  };
}

/** Ingests `count` documents at T0 + from … T0 + from + count - 1, in batches. */
export async function ingestRange(api: ApiClient, from: number, count: number, batch = 5_000): Promise<void> {
  for (let start = from; start < from + count; start += batch) {
    const proposals = Array.from({ length: Math.min(batch, from + count - start) }, (_, i) => profileProposal(T0 + start + i));
    const { status, body } = await api.ingest(proposals);
    if (status !== 200) throw new Error(`ingestion failed: ${status} ${JSON.stringify(body)}`);
  }
}

/** `{matching, total}` of a truncation up to `endTimeMillis`, read from the dry-run answer. */
export async function dryRunCount(api: ApiClient, endTimeMillis: number): Promise<{ matching: number; total: number }> {
  const { status, body } = await api.operation('truncateTimeseriesAspect', { ...TARGET, endTimeMillis });
  const match = /^Delete (\d+) out of (\d+) rows/.exec(String(body?.value));
  if (status !== 200 || !match) throw new Error(`dry run failed: ${status} ${JSON.stringify(body)}`);
  return { matching: Number(match[1]), total: Number(match[2]) };
}

/** Documents with T0 + from <= timestampMillis <= T0 + to. */
export async function countBetween(api: ApiClient, from: number, to: number): Promise<number> {
  const [upTo, before] = await Promise.all([dryRunCount(api, T0 + to), dryRunCount(api, T0 + from - 1)]);
  return upTo.matching - before.matching;
}

export async function startTruncation(api: ApiClient, endTimeMillis: number, options: Record<string, unknown> = {}) {
  return api.operation('truncateTimeseriesAspect', { ...TARGET, endTimeMillis, dryRun: false, ...options });
}

export interface TaskStatusValue {
  completed: boolean;
  taskId: string;
  status: { total: number; deleted: number; created: number; batches: number };
  error?: string;
}

export async function taskStatus(api: ApiClient, task: string): Promise<TaskStatusValue> {
  const { status, body } = await api.operation('getEsTaskStatus', { task });
  if (status !== 200) throw new Error(`getEsTaskStatus failed: ${status} ${JSON.stringify(body)}`);
  return JSON.parse(body.value) as TaskStatusValue;
}

/** Polls until `done(status)` or the deadline; returns the last status seen. */
export async function pollTask(api: ApiClient, task: string, done: (s: TaskStatusValue) => boolean, timeoutMs = 30_000): Promise<TaskStatusValue> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await taskStatus(api, task);
    if (done(status) || Date.now() > deadline) return status;
    await new Promise((r) => setTimeout(r, 20));
  }
}
