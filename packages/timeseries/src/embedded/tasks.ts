import type { SqliteDatabase } from '@mds/db';
import { randomInt } from 'node:crypto';
import type { TaskCounts, TruncationMode } from '../port.ts';
import type { TaskProgress } from '../task-status.ts';
import { FINISH_SQL, META_TABLE, SCRATCH_NAME, TASKS_TABLE, quote, whileWriting } from './sql.js';

/** A row of `timeseries_tasks`, as the raw statements below read it. */
export interface TaskRow extends TaskProgress {
  indexName: string;
  heartbeatAt: number;
  ownerPid: number;
  ownerInstance: string;
}

const ROW = `id, index_name AS indexName, mode, state, total, deleted, created, batches, rows_per_second AS rowsPerSecond,
  started_at AS startedAt, heartbeat_at AS heartbeatAt, finished_at AS finishedAt, error,
  owner_pid AS ownerPid, owner_instance AS ownerInstance`;

/** A task of another process that has not shown a sign of life for this long is considered dead. */
const STALE_AFTER_MS = 10 * 60_000;

const NODE_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The stable node id of this database (first part of task ids), created on first use like an Elasticsearch node id. */
export function nodeIdOf(db: SqliteDatabase): string {
  const existing = db.prepare(`SELECT value FROM ${META_TABLE} WHERE key = 'node_id'`).pluck().get() as string | undefined;
  if (existing) return existing;
  const fresh = Array.from({ length: 22 }, () => NODE_ID_ALPHABET[randomInt(NODE_ID_ALPHABET.length)]).join('');
  db.prepare(`INSERT OR IGNORE INTO ${META_TABLE} (key, value) VALUES ('node_id', ?)`).run(fresh);
  return db.prepare(`SELECT value FROM ${META_TABLE} WHERE key = 'node_id'`).pluck().get() as string;
}

/** Task rows: creation, lookup, and deciding whether a "running" row still has a live worker behind it. */
export class TaskTable {
  private readonly byId;
  private readonly runningOnIndex;
  private readonly allRunning;
  private readonly byState;
  private readonly insert;
  private readonly finish;

  constructor(
    private readonly db: SqliteDatabase,
    /** Identifies this store instance as the owner of the tasks it starts. */
    private readonly instanceId: string,
    /** Whether a task of this instance still has its worker. */
    private readonly hasWorker: (taskNo: number) => boolean,
    /** The store's write-lock fairness counter (see sql.js whileWriting). */
    private readonly contention: SharedArrayBuffer,
  ) {
    this.byId = db.prepare(`SELECT ${ROW} FROM ${TASKS_TABLE} WHERE id = ?`);
    this.runningOnIndex = db.prepare(`SELECT ${ROW} FROM ${TASKS_TABLE} WHERE index_name = ? AND state = 'running'`);
    this.allRunning = db.prepare(`SELECT ${ROW} FROM ${TASKS_TABLE} WHERE state = 'running'`);
    this.byState = db.prepare(`SELECT state, count(*) AS n FROM ${TASKS_TABLE} GROUP BY state`);
    this.insert = db.prepare(`INSERT INTO ${TASKS_TABLE}
      (index_name, mode, end_time_millis, batch_size, rows_per_second, state, started_at, heartbeat_at, owner_pid, owner_instance)
      VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?)`);
    this.finish = db.prepare(FINISH_SQL);
  }

  get(taskNo: number): TaskRow | undefined {
    return this.byId.get(taskNo) as TaskRow | undefined;
  }

  /** Running tasks on an index whose owner is alive (dead ones are marked failed on the way). */
  liveOnIndex(index: string): TaskRow[] {
    return (this.runningOnIndex.all(index) as TaskRow[]).filter((row) => this.settle(row).state === 'running');
  }

  /** Tasks by state; running rows without a live owner are settled first, so a dead task never counts as running. */
  counts(): TaskCounts {
    for (const row of this.allRunning.all() as TaskRow[]) this.settle(row);
    const counts: TaskCounts = { running: 0, completed: 0, failed: 0 };
    for (const { state, n } of this.byState.all() as { state: keyof TaskCounts; n: number }[]) counts[state] = n;
    return counts;
  }

  create(task: { index: string; mode: TruncationMode; endTimeMillis: number; batchSize: number; rowsPerSecond?: number }): number {
    const now = Date.now();
    const result = this.insert.run(
      task.index,
      task.mode,
      task.endTimeMillis,
      task.batchSize,
      task.rowsPerSecond ?? null,
      now,
      now,
      process.pid,
      this.instanceId,
    );
    return Number(result.lastInsertRowid);
  }

  fail(taskNo: number, reason: string): void {
    const now = Date.now();
    whileWriting(this.contention, () => this.finish.run('failed', reason, now, now, taskNo));
  }

  /** A running row whose owner is gone becomes a failed one; returns the row as it now stands. */
  settle(row: TaskRow): TaskRow {
    if (row.state !== 'running' || this.ownerAlive(row)) return row;
    this.fail(row.id, interruptedReason(row));
    return this.get(row.id) ?? row;
  }

  /**
   * After a restart or crash: every task left "running" without a live owner is failed, and the scratch tables
   * and triggers of tasks that are not running any more are dropped (a swap either committed or never happened,
   * so these are never needed to read the data).
   */
  recover(): void {
    this.db
      .transaction(() => {
        for (const row of this.allRunning.all() as TaskRow[]) this.settle(row);
        const scratch = this.db
          .prepare(
            `SELECT type, name FROM sqlite_schema WHERE type IN ('trigger', 'table') AND name LIKE '%aspect\\_v1\\_\\_%' ESCAPE '\\'`,
          )
          .all() as { type: 'trigger' | 'table'; name: string }[];
        // Triggers first: they belong to live index tables and write into the scratch tables.
        scratch.sort((a, b) => (a.type === b.type ? 0 : a.type === 'trigger' ? -1 : 1));
        for (const { type, name } of scratch) {
          const match = SCRATCH_NAME.exec(name);
          if (!match) continue;
          if (this.get(Number(match[3]))?.state === 'running') continue;
          this.db.exec(`DROP ${type === 'trigger' ? 'TRIGGER' : 'TABLE'} IF EXISTS ${quote(name)}`);
        }
      })
      .immediate();
  }

  private ownerAlive(row: TaskRow): boolean {
    if (row.ownerInstance === this.instanceId) return this.hasWorker(row.id);
    // Same process, another store instance: that instance was closed or crashed (a server runs one store).
    if (row.ownerPid === process.pid) return false;
    if (Date.now() - row.heartbeatAt > STALE_AFTER_MS) return false;
    try {
      process.kill(row.ownerPid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
}

function interruptedReason(row: TaskRow): string {
  return (
    'Interrupted: mds stopped (restart or crash) while the truncation was running; ' +
    `${row.deleted} of ${row.total} rows had been deleted. Run the truncation again.`
  );
}
