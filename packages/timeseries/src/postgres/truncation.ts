import type { SqlDatabase, SqlExecutor, TransactionOptions } from '@mds/db';
import type { TruncationRequest } from '../port.ts';
import { FINISH_SQL, INDEX_COLUMNS, NOW_MS, PROGRESS_SQL, createIndexTableSql, lockIndex, quote, tableName } from './sql.ts';

/**
 * The transactions of this store take advisory locks of their own (shared and exclusive, which the port's lockKeys
 * cannot say), and name no keys of the port's: an empty list gets the port's READ COMMITTED transaction, where each
 * statement sees what committed before it and waits only for the rows and locks it touches. SERIALIZABLE would undo
 * concurrent ingestions into one index (their rows are neighbours in its B-trees) only to run them again.
 */
export const READ_COMMITTED: TransactionOptions = { lockKeys: [] };

/** How the store steers a running truncation: stop (closing, the task fails saying so) or crash (tests: abandon it). */
export class RunControl {
  stopping = false;
  crashed = false;
  private wake: (() => void) | undefined;

  stop(): void {
    this.stopping = true;
    this.wake?.();
  }

  crash(): void {
    this.crashed = true;
    this.wake?.();
  }

  /** Resolves after `ms`, or as soon as the task is told to stop or crash. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

export interface TruncationJob {
  db: SqlDatabase;
  /** The store instance running it (`timeseries_tasks.owner`). */
  owner: string;
  taskNo: number;
  /** The index's id in timeseries_indices (its lock). */
  indexId: number;
  request: TruncationRequest;
  control: RunControl;
}

/** The store is closing: the task ends failed, saying mds was shut down. */
class Stopped extends Error {}
/** A simulated crash: the task is left as a killed process would leave it. */
class Abandoned extends Error {}
/** The task is not this owner's to run any more: another replica marked it failed (no heartbeat for too long). */
class Lost extends Error {}

/**
 * Runs one truncation to its end in batches of short transactions, each recording its progress in the same
 * transaction (the status always matches the data). Delete: the oldest `batchSize` rows up to the end time per
 * batch. Reindex: an empty copy that every write and deletion of a survivor is mirrored into from then on, the
 * survivors copied in key order, then one transaction points the index at the copy (readers see the old table or the
 * new one, never neither) and the old table is dropped. Never throws: failures are recorded on the task.
 */
export async function runTruncation(job: TruncationJob): Promise<void> {
  const { db, owner, taskNo, indexId, request, control } = job;
  const { endTimeMillis: end, batchSize } = request;
  const startedAt = Date.now();
  let rowsDone = 0;
  /** A table of this task's to drop if it fails: the copy, once made. */
  let scratch: string | undefined;

  const checkpoint = () => {
    if (control.crashed) throw new Abandoned();
    if (control.stopping) throw new Stopped();
  };
  /** One batch: its own transaction, waiting at most `timeoutSeconds` for any lock. */
  const batch = <T>(work: (tx: SqlExecutor) => Promise<T>) =>
    db.transaction(async (tx) => {
      await tx.get(`SELECT set_config('lock_timeout', ?, true)`, [`${Math.round(request.timeoutSeconds * 1000)}ms`]);
      return work(tx);
    }, READ_COMMITTED);
  const progress = async (tx: SqlExecutor, deleted: number, created: number, batches: number) => {
    if ((await tx.run(PROGRESS_SQL, [deleted, created, batches, taskNo, owner])).changes === 0) throw new Lost();
  };
  const finish = (on: SqlExecutor, state: 'completed' | 'failed', error: string | null) =>
    on.run(FINISH_SQL, [state, error, taskNo, owner]);
  const countUpTo = async (table: string) =>
    (await db.get<{ n: number }>(`SELECT count(*) AS n FROM ${quote(table)} WHERE timestamp_millis <= ?`, [end]))!.n;
  const recordTotal = async (table: string) => {
    const total = await countUpTo(table);
    await db.run('UPDATE timeseries_tasks SET total = ? WHERE id = ?', [total, taskNo]);
  };
  /** Waits (waking early on stop) so that rows/second stays under the throttle. The store keeps the heartbeat. */
  const throttle = async () => {
    if (!request.rowsPerSecond) return;
    for (;;) {
      const waitMs = (rowsDone / request.rowsPerSecond) * 1000 - (Date.now() - startedAt);
      if (waitMs <= 0) return;
      await control.sleep(waitMs);
      checkpoint();
    }
  };

  async function runDelete(table: string) {
    await recordTotal(table);
    const t = quote(table);
    for (let more = true; more;) {
      checkpoint();
      const result = await batch(async (tx) => {
        const { changes } = await tx.run(
          `WITH doomed AS (SELECT timestamp_millis, id FROM ${t} WHERE timestamp_millis <= ? ORDER BY timestamp_millis, id LIMIT ?)
           DELETE FROM ${t} AS d USING doomed WHERE d.timestamp_millis = doomed.timestamp_millis AND d.id = doomed.id`,
          [end, batchSize],
        );
        // Rows deleted meanwhile by someone else are skipped, so fewer than batchSize does not mean the end.
        const left = (await tx.get<{ more: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${t} WHERE timestamp_millis <= ?) AS more`, [end]))!
          .more;
        await progress(tx, changes, 0, changes > 0 ? 1 : 0);
        if (!left) await finish(tx, 'completed', null);
        return { changes, more: left };
      });
      rowsDone += result.changes;
      more = result.more;
      if (more) await throttle();
    }
  }

  async function runReindex(table: string) {
    await recordTotal(table);
    // 1. The empty copy; from this commit on, writers and deleters (who hold the index's lock shared) mirror every
    //    change to a row newer than the end time into it, so it never misses a row written after the copy passed
    //    its place, nor keeps one deleted after it was copied.
    const copy = tableName((await db.get<{ n: number }>(`SELECT nextval('timeseries_table_number') AS n`))!.n);
    await batch(async (tx) => {
      await lockIndex(tx, indexId, 'exclusive');
      for (const sql of createIndexTableSql(copy)) await tx.run(sql);
      await tx.run('UPDATE timeseries_indices SET copy_table = ?, copy_after = ? WHERE id = ?', [copy, end, indexId]);
      const { changes } = await tx.run(`UPDATE timeseries_tasks SET scratch_table = ? WHERE id = ? AND owner = ? AND state = 'running'`, [
        copy,
        taskNo,
        owner,
      ]);
      if (changes === 0) throw new Lost();
    });
    scratch = copy;

    // 2. The survivors in key order, a batch per transaction, under the index's lock: no write or deletion of the
    //    index runs while a batch is read and copied (they wait for it, as ingestion waits for a batch in SQLite).
    const columns = INDEX_COLUMNS.join(', ');
    let cursor = { ts: end + 1, id: '' }; // just before the first survivor (ids are never empty)
    for (;;) {
      checkpoint();
      const last = await batch(async (tx) => {
        await lockIndex(tx, indexId, 'exclusive');
        const row = await tx.get<{ ts: number; id: string; n: number }>(
          `WITH batch AS (
             SELECT ${columns} FROM ${quote(table)} WHERE (timestamp_millis, id) > (?, ?) ORDER BY timestamp_millis, id LIMIT ?),
           copied AS (INSERT INTO ${quote(copy)} (${columns}) SELECT ${columns} FROM batch ON CONFLICT (timestamp_millis, id) DO NOTHING)
           SELECT timestamp_millis AS ts, id, (SELECT count(*) FROM batch) AS n FROM batch ORDER BY timestamp_millis DESC, id DESC LIMIT 1`,
          [cursor.ts, cursor.id, batchSize],
        );
        if (row) await progress(tx, 0, row.n, 1);
        return row;
      });
      if (!last) break;
      rowsDone += last.n;
      cursor = last;
      if (last.n < batchSize) break;
      await throttle();
    }

    // 3. The swap: one transaction points the index at the copy and completes the task. The rows it drops are
    //    counted just before, outside the lock (counting is the slow part).
    checkpoint();
    const dropped = await countUpTo(table);
    await batch(async (tx) => {
      await lockIndex(tx, indexId, 'exclusive');
      await tx.run('UPDATE timeseries_indices SET table_name = ?, copy_table = NULL, copy_after = NULL WHERE id = ?', [copy, indexId]);
      const { changes } = await tx.run(
        `UPDATE timeseries_tasks SET deleted = deleted + ?, batches = batches + 1, scratch_table = ?, state = 'completed',
           finished_at = ${NOW_MS}, heartbeat_at = ${NOW_MS}
         WHERE id = ? AND owner = ? AND state = 'running'`,
        [dropped, table, taskNo, owner],
      );
      if (changes === 0) throw new Lost();
    });
    scratch = undefined;
    // 4. The old table goes once its last readers are done (a reader that meets it gone reads the new one).
    await dropScratch(db, { taskNo, indexId, table }).catch(() => undefined);
  }

  try {
    const table = (await db.get<{ table: string }>('SELECT table_name AS "table" FROM timeseries_indices WHERE id = ?', [indexId]))!.table;
    if (request.mode === 'delete') await runDelete(table);
    else await runReindex(table);
  } catch (error) {
    if (error instanceof Abandoned || error instanceof Lost) return;
    const reason =
      error instanceof Stopped
        ? `Interrupted: mds was shut down while the truncation was running; ${request.mode === 'delete' ? `${rowsDone} rows were deleted` : 'nothing was deleted'}. Run the truncation again.`
        : `Truncation failed: ${error instanceof Error ? error.message : String(error)}`;
    try {
      await finish(db, 'failed', reason);
      if (scratch) await dropScratch(db, { taskNo, indexId, table: scratch });
    } catch {
      // Left running (the database cannot be reached): its heartbeat stops, and once stale any replica marks it failed
      // and drops its scratch table.
    }
  }
}

/**
 * Drops a table a task left behind (the copy of a failed reindex, or the table a reindex swapped out): first no
 * longer mirrored into (under the index's lock, so no writer is still about to), never while it holds the index's
 * rows, then forgotten by the task. Idempotent: replicas recovering together may both run it.
 */
export async function dropScratch(db: SqlDatabase, scratch: { taskNo: number; indexId: number; table: string }): Promise<void> {
  const { taskNo, indexId, table } = scratch;
  const unused = await db.transaction(async (tx) => {
    await lockIndex(tx, indexId, 'exclusive');
    await tx.run('UPDATE timeseries_indices SET copy_table = NULL, copy_after = NULL WHERE id = ? AND copy_table = ?', [indexId, table]);
    return (await tx.get('SELECT 1 FROM timeseries_indices WHERE table_name = ?', [table])) === undefined;
  }, READ_COMMITTED);
  if (unused) await db.run(`DROP TABLE IF EXISTS ${quote(table)}`);
  await db.run('UPDATE timeseries_tasks SET scratch_table = NULL WHERE id = ? AND scratch_table = ?', [taskNo, table]);
}
