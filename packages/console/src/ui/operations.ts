import { request, ServerError } from './api';

// The time-series operations of the Rest.li resource `operations` (spec §6), called as DataHub's clients call them.
const OPERATIONS = '/gms/operations?action=';

/** One row of getIndexSizes; `sizeMb` as the server sent it. */
export interface IndexSize {
  indexName: string;
  entityName: string;
  aspectName: string;
  sizeMb: number;
}

/** getIndexSizes, largest first. */
export async function getIndexSizes(): Promise<IndexSize[]> {
  const answer = (await request('POST', `${OPERATIONS}getIndexSizes`, {})) as {
    value: { indexSizes: (IndexSize & { sizeInMb?: number })[] };
  };
  return answer.value.indexSizes
    .map(({ indexName, entityName, aspectName, sizeMb, sizeInMb }) => ({ indexName, entityName, aspectName, sizeMb: sizeInMb ?? sizeMb }))
    .sort((a, b) => b.sizeMb - a.sizeMb || a.indexName.localeCompare(b.indexName));
}

export interface TruncationRequest {
  entityType: string;
  aspect: string;
  endTimeMillis: number;
}

/** A dry run's text, as the server wrote it (`Delete 3 out of 10 rows (30.00%). … This was a dry run. …`). */
export async function dryRun(target: TruncationRequest): Promise<string> {
  const answer = (await request('POST', `${OPERATIONS}truncateTimeseriesAspect`, { ...target, dryRun: true })) as { value: string };
  return answer.value;
}

/** Starts the deletion; answers the task id (`<node>:<n>`) to follow with getEsTaskStatus. */
export async function startTruncation(target: TruncationRequest): Promise<string> {
  const answer = (await request('POST', `${OPERATIONS}truncateTimeseriesAspect`, { ...target, dryRun: false })) as { value: string };
  return answer.value;
}

/** The two counts of a dry-run text, read as DataHub's gc job reads them. */
export function dryRunCounts(text: string): { matching: number; total: number } | undefined {
  const match = /^Delete (\d+) out of (\d+) rows/.exec(text);
  return match ? { matching: Number(match[1]), total: Number(match[2]) } : undefined;
}

/**
 * The rows of an index: the total of a dry run that would delete everything (nothing is deleted). getIndexSizes has
 * no row counts, and this is the one read of them the operations contract offers; it needs the truncate privilege.
 */
export async function rowCount(index: IndexSize): Promise<number> {
  const text = await dryRun({ entityType: index.entityName, aspect: index.aspectName, endTimeMillis: Number.MAX_SAFE_INTEGER });
  const counts = dryRunCounts(text);
  if (!counts) throw new ServerError(text, 200);
  return counts.total;
}

/**
 * Whether this token may truncate. `me` has no field for the operations privileges (they are REST-only), so the
 * server is asked: a dry run naming no entity type is refused with 403 without the privilege and with 400 with it,
 * and counts nothing. Answers the server's refusal text, or undefined when allowed.
 */
export async function truncationRefusal(): Promise<string | undefined> {
  try {
    await dryRun({ entityType: '', aspect: '', endTimeMillis: 0 });
    return undefined;
  } catch (error) {
    if (error instanceof ServerError && error.status === 403) return error.message;
    if (error instanceof ServerError && error.status === 401) throw error;
    // A 400 is the expected answer; anything else (a cluster down) must not keep the user out: the server decides
    // again when they act.
    return undefined;
  }
}

/** getEsTaskStatus's answer (JSON text in `value`), Elasticsearch's BulkByScrollTask status shape. */
export interface TaskStatus {
  completed: boolean;
  taskId: string;
  status: { total: number; deleted: number };
  runTimeNanos: number;
  error?: unknown;
}

/** The task's status; a ServerError with the server's text when it knows no such task. */
export async function taskStatus(task: string): Promise<TaskStatus> {
  const answer = (await request('POST', `${OPERATIONS}getEsTaskStatus`, { task })) as { value: string };
  const status = JSON.parse(answer.value) as TaskStatus | { error: string };
  if (!('completed' in status)) throw new ServerError(status.error, 200);
  return status;
}

/** A task's error as text: the server's string, or its JSON (Elasticsearch reports objects). */
export const taskError = (error: unknown): string => (typeof error === 'string' ? error : JSON.stringify(error));
