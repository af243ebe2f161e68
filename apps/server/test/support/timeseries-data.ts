import type { JsonPoster } from './api-client';
import { sleep } from './live';

// Time-series documents whose identity is their timestamp (one entity, distinct timestamps), so "is every
// acknowledged document there" is a count over a timestamp range, answered by a dry-run truncation. The helpers take
// anything that POSTs JSON: a spawned server's ApiClient or the in-process Mds.
export const T0 = Date.UTC(2026, 0, 1);
const ENTITY = 'urn:li:dataset:(urn:li:dataPlatform:hive,robustness.table,PROD)';
/** The index every helper here writes to and truncates. */
export const TARGET = { entityType: 'dataset', aspect: 'datasetProfile' };
const INGEST_BATCH = 5_000;

export function profileProposal(timestampMillis: number) {
  return {
    entityType: 'dataset',
    entityUrn: ENTITY,
    changeType: 'UPSERT',
    aspectName: 'datasetProfile',
    aspect: {
      contentType: 'application/json',
      value: JSON.stringify({ timestampMillis, rowCount: timestampMillis % 1000, columnCount: 3 }),
    },
  };
}

/** Ingests `count` documents at T0 + from … T0 + from + count - 1, in batches. */
export async function ingestRange(api: JsonPoster, from: number, count: number): Promise<void> {
  for (let start = from; start < from + count; start += INGEST_BATCH) {
    const proposals = Array.from({ length: Math.min(INGEST_BATCH, from + count - start) }, (_, i) => profileProposal(T0 + start + i));
    const { status, body } = await api.post('/aspects?action=ingestProposalBatch', { proposals });
    if (status !== 200) throw new Error(`ingestion failed: ${status} ${JSON.stringify(body)}`);
  }
}

/** `{matching, total}` of a truncation up to `endTimeMillis`, read from the dry-run answer. */
export async function dryRunCount(api: JsonPoster, endTimeMillis: number): Promise<{ matching: number; total: number }> {
  const { status, body } = await api.post('/gms/operations?action=truncateTimeseriesAspect', { ...TARGET, endTimeMillis });
  const match = /^Delete (\d+) out of (\d+) rows/.exec(String(body?.value));
  if (status !== 200 || !match) throw new Error(`dry run failed: ${status} ${JSON.stringify(body)}`);
  return { matching: Number(match[1]), total: Number(match[2]) };
}

/** Documents with T0 + from <= timestampMillis <= T0 + to. */
export async function countBetween(api: JsonPoster, from: number, to: number): Promise<number> {
  const [upTo, before] = await Promise.all([dryRunCount(api, T0 + to), dryRunCount(api, T0 + from - 1)]);
  return upTo.matching - before.matching;
}

/** Starts a real truncation up to `endTimeMillis` (`options` may override any parameter); the answer as it came. */
export function startTruncation(api: JsonPoster, endTimeMillis: number, options: Record<string, unknown> = {}) {
  return api.post('/gms/operations?action=truncateTimeseriesAspect', { ...TARGET, endTimeMillis, dryRun: false, ...options });
}

interface TaskStatusValue {
  completed: boolean;
  taskId: string;
  status: { total: number; deleted: number; created: number; batches: number };
  error?: string;
}

export async function taskStatus(api: JsonPoster, task: string): Promise<TaskStatusValue> {
  const { status, body } = await api.post('/gms/operations?action=getEsTaskStatus', { task });
  if (status !== 200) throw new Error(`getEsTaskStatus failed: ${status} ${JSON.stringify(body)}`);
  return JSON.parse(body.value) as TaskStatusValue;
}

/** Polls until `done(status)` and returns that status; throws with the last status seen once `timeoutMs` has passed. */
export async function pollTask(
  api: JsonPoster,
  task: string,
  done: (s: TaskStatusValue) => boolean,
  timeoutMs = 30_000,
): Promise<TaskStatusValue> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await taskStatus(api, task);
    if (done(status)) return status;
    if (Date.now() > deadline) throw new Error(`task ${task} not done after ${timeoutMs} ms: ${JSON.stringify(status)}`);
    await sleep(20);
  }
}
