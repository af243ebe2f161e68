import type { TaskStatus, TruncationMode } from './port.ts';

/** What a task status is made of, as both SQL stores keep it (milliseconds; `finishedAt` null while it runs). */
export interface TaskProgress {
  id: number;
  mode: TruncationMode;
  state: 'running' | 'completed' | 'failed';
  total: number;
  deleted: number;
  created: number;
  batches: number;
  rowsPerSecond: number | null;
  startedAt: number;
  finishedAt: number | null;
  error: string | null;
}

/** What getEsTaskStatus reports: Elasticsearch's BulkByScrollTask status shape, so existing pollers keep working. */
export function toTaskStatus(nodeId: string, row: TaskProgress, now: number = Date.now()): TaskStatus {
  const status: TaskStatus = {
    completed: row.state !== 'running',
    taskId: `${nodeId}:${row.id}`,
    status: {
      total: row.total,
      updated: 0,
      created: row.created,
      deleted: row.deleted,
      batches: row.batches,
      version_conflicts: 0,
      noops: 0,
      retries: { bulk: 0, search: 0 },
      throttled_millis: 0,
      requests_per_second: row.rowsPerSecond ?? -1,
      throttled_until_millis: 0,
    },
    runTimeNanos: Math.max(0, (row.finishedAt ?? now) - row.startedAt) * 1_000_000,
  };
  if (row.error) status.error = row.error;
  return status;
}
