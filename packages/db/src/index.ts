import { flushWhenArrivalsStop } from './arrivals';
import type { SqliteDatabase } from './sqlite';

export { DatabaseTooNewError, applyMigrations, openDatabase, type OpenOptions, type SqliteDatabase } from './sqlite';

export type GroupCommit = ReturnType<typeof createGroupCommit>;

/** A batch this large commits without waiting for writes still arriving, so a steady stream still commits often. */
const COMMIT_AT_WRITES = 256;

/**
 * Group commit: concurrent writes run in a single transaction, so they share one commit and its fsync instead of
 * paying one each (with synchronous=FULL the commit, not the SQL, is what a write costs). Every promise settles only
 * after the commit, so nothing is acknowledged before it is durable.
 *
 * The batch is committed at the end of the first turn of the event loop that adds no write to it, or once it holds
 * COMMIT_AT_WRITES writes. While requests are still being read, waiting a turn costs microseconds and lets them
 * share the commit: under 32 concurrent writers, batches grew from ~15 to ~30 and tag creation took ~15 % less CPU.
 * A lone write waits one extra turn.
 *
 * A write that throws is rolled back alone and rejects alone. The batch first runs plainly; only if one of its writes
 * throws is it rolled back whole and run again with a savepoint around each write. Savepoints on every write would
 * cost more than the writes: FTS5 writes its pending index to disk at each one (a segment per write, merged later),
 * which made a batch of tag creations several times dearer. So `work` must touch nothing but the database: it may
 * run twice. A batch that fails at BEGIN IMMEDIATE or at COMMIT (busy, disk full, a deferred foreign key) is not
 * run again: every write of it rejects with that error.
 *
 * A refusal (an error `options.isRefusal` accepts) needs no rollback: the write that throws one promises it has
 * changed nothing (it refused before its first change, or its first change failed and SQLite undid that statement).
 * It rejects alone and the batch goes on, so a client's invalid input or duplicate id costs the others nothing.
 */
export function createGroupCommit(db: SqliteDatabase, options: { isRefusal?: (error: unknown) => boolean } = {}) {
  const isRefusal = options.isRefusal ?? (() => false);
  type Pending = { work: () => unknown; resolve(value: unknown): void; reject(error: unknown): void };
  type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
  let queue: Pending[] = [];
  // Set when a write of the batch threw, as opposed to BEGIN or COMMIT failing: only then is the batch run again.
  let writeThrew = false;
  const runAll = db.transaction((batch: Pending[]): Outcome[] =>
    batch.map(({ work }) => {
      try {
        return { ok: true, value: work() };
      } catch (error) {
        if (isRefusal(error)) return { ok: false, error };
        writeThrew = true;
        throw error;
      }
    }),
  );
  // A better-sqlite3 transaction called inside another becomes a SAVEPOINT.
  const inSavepoint = db.transaction((work: () => unknown) => work());
  const runEach = db.transaction((batch: Pending[]): Outcome[] =>
    batch.map(({ work }) => {
      try {
        return { ok: true, value: inSavepoint(work) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );
  const flush = () => {
    const batch = queue;
    queue = [];
    let outcomes: Outcome[];
    try {
      try {
        writeThrew = false;
        outcomes = runAll.immediate(batch);
      } catch (error) {
        if (!writeThrew || batch.length === 1) throw error;
        outcomes = runEach.immediate(batch);
      }
    } catch (error) {
      // BEGIN or COMMIT failed (busy, disk full, a deferred foreign key), or the only write did: none of the batch
      // happened.
      for (const pending of batch) pending.reject(error);
      return;
    }
    outcomes.forEach((outcome, i) => (outcome.ok ? batch[i]!.resolve(outcome.value) : batch[i]!.reject(outcome.error)));
  };
  const schedule = flushWhenArrivalsStop(() => queue.length, COMMIT_AT_WRITES, flush);
  return {
    /** Runs `work` (synchronous SQL, nothing else) in the next group transaction; settles once that committed. */
    run<T>(work: () => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        if (queue.push({ work, resolve, reject }) === 1) schedule();
      });
    },
  };
}

/**
 * `work` made atomic without a savepoint. Called alone it runs in a transaction of its own (IMMEDIATE: it takes the
 * write lock before its first read, so a read-then-write cannot be overtaken). Called inside an open transaction it
 * simply joins it, and whoever owns that transaction answers for a failure: `createGroupCommit` rolls the whole
 * batch back and runs each write again in a savepoint. Avoiding the savepoint is the point: at each one FTS5 writes
 * its pending index to disk.
 */
export function atomic<A extends unknown[], R>(db: SqliteDatabase, work: (...args: A) => R): (...args: A) => R {
  const alone = db.transaction(work);
  return (...args) => (db.inTransaction ? work(...args) : alone.immediate(...args));
}

export { createCommitCache, createReadCache, type ReadCache } from './read-cache';
export { createStampedCache } from './stamped-cache';
export type { SqlDatabase, SqlDialect, SqlExecutor, TransactionOptions } from './port';
export { openSqliteDatabase } from './sqlite-adapter';
export { copyTable, type CopiedTable } from './copy-table';
export { deleteRows, writeRows, type OnConflict, type RowsWrite } from './rows';
export { DatabaseConfigError, databaseFromEnv, masked, type DatabaseConfig } from './database-config';
export { isDatabaseUnavailable } from './unavailable';
export { DEFAULT_POOL_SIZE, openPostgresDatabase, type PostgresOptions } from './postgres-adapter';
export {
  copiedTable,
  defineTable,
  millisecondsOf,
  timestampParameter,
  type AnyTableDescription,
  type ColumnSpec,
  type IndexKey,
  type IndexSpec,
  type TableDescription,
  type TableSpec,
} from './schema-factory';
