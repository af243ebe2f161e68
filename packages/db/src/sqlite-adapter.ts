import type Database from 'better-sqlite3';
import { flushWhenArrivalsStop } from './arrivals';
import { commitStamp } from './commit-watch';
import { applyMigrations, openDatabase } from './sqlite';
import type { SqlDatabase, SqlExecutor } from './port';
import { fdatasyncFile, walSyncer, type SyncFile } from './wal-sync';

/** A batch this large starts at once, without waiting for more transactions to arrive. */
const COMMIT_AT_TRANSACTIONS = 256;

export interface SqliteAdapterOptions {
  /**
   * Who makes a commit durable; either way a transaction resolves only once it is. `background` (the default): the
   * writer runs `synchronous=NORMAL` and the adapter `fdatasync`s the `-wal` file on libuv's thread pool after each
   * batch's COMMIT, so the event loop goes on serving while the disk syncs. `inline`: `synchronous=FULL`, SQLite syncs
   * inside COMMIT, on the event loop. Files not in WAL mode are always `inline`.
   */
  commitSync?: 'background' | 'inline';
  /** Replaces the `fdatasync` of the WAL file (tests). */
  syncFile?: SyncFile;
}

/**
 * The storage port on a SQLite file. Two connections: the writer runs transactions, one after another; the reader
 * answers statements outside them and, in WAL mode, sees only committed rows.
 *
 * Group commit: transactions share one BEGIN…COMMIT (and its sync) with those that arrive while requests are still
 * being read: a batch starts at the end of the first turn of the event loop that queues no transaction, or once it
 * holds COMMIT_AT_TRANSACTIONS. Starting at the first turn made a batch of whatever one poll of the sockets had
 * brought (~16 of 32 concurrent single-aspect ingestions), though a commit of 32 costs about the same (~2 ms).
 * They run plainly; should one fail, the batch is rolled back and run again with a savepoint around each, so the
 * failing one is undone alone (a transaction's work may therefore run twice: it must touch nothing but the
 * database). Each promise settles only after the commit is durable.
 *
 * Durability off the event loop (`commitSync: 'background'`, see wal-sync.ts): a batch's COMMIT returns without a
 * sync, the next batch may run and commit while the sync of the WAL file runs, and each batch's promises resolve when
 * a sync begun after its COMMIT completed. SQLite's NORMAL still syncs the WAL before a checkpoint copies it and the
 * database file after, so no committed frame is lost to a checkpoint. A committed batch is visible to the reader before
 * its sync ends, so a read made meanwhile waits for that sync (and a batch ready to commit waits for those reads):
 * nothing that a crash could still undo is ever answered. A failed sync rejects its batches and refuses every later
 * transaction (CommitSyncError) until the database is opened again.
 */
export function openSqliteDatabase(file: string, options: SqliteAdapterOptions = {}): SqlDatabase {
  const writer = openDatabase(file);
  const reader = openDatabase(file);
  reader.pragma('query_only = ON');
  const background = (options.commitSync ?? 'background') === 'background' && isWal(writer);
  if (background) writer.pragma('synchronous = NORMAL');
  const syncFile = options.syncFile ?? fdatasyncFile();
  const syncer = background ? walSyncer(`${file}-wal`, syncFile) : undefined;
  const write = executor(writer);
  const read = executor(reader);
  // Prepared once: exec() would compile these five statements again for every transaction of every batch.
  const control = (sql: string) => {
    const statement = writer.prepare(sql);
    return () => void statement.run();
  };
  const begin = control('BEGIN IMMEDIATE');
  const savepoint = control('SAVEPOINT unit');
  const release = control('RELEASE unit');
  const rollbackToSavepoint = control('ROLLBACK TO unit');
  const commit = control('COMMIT');
  const rollback = control('ROLLBACK');

  /** Reads waiting for the sync of a commit they could see; no batch commits until they have run. */
  let readsWaiting = 0;
  let readsServed: (() => void) | undefined;
  const afterWaitingReads = () => (readsWaiting === 0 ? undefined : new Promise<void>((resolve) => (readsServed = resolve)));
  /** A read on the reader connection, once every commit it could see is durable. */
  const durably = <T>(statement: () => Promise<T>): Promise<T> => {
    const pending = syncer?.pending();
    if (!pending) return statement();
    readsWaiting++;
    return pending.then(statement, statement).finally(() => {
      if (--readsWaiting === 0 && readsServed) {
        const served = readsServed;
        readsServed = undefined;
        served();
      }
    });
  };

  type Queued = { work: (tx: SqlExecutor) => Promise<unknown>; resolve(value: unknown): void; reject(error: unknown): void };
  let queue: Queued[] = [];
  let draining = false;

  type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

  /** Runs every unit plainly; the first that throws stops the run (its batch is then rolled back and run again). */
  const runPlainly = async (batch: Queued[]): Promise<Outcome[] | undefined> => {
    const outcomes: Outcome[] = [];
    for (const { work } of batch) {
      try {
        outcomes.push({ ok: true, value: await work(write) });
      } catch (error) {
        if (batch.length === 1) return [{ ok: false, error }];
        return undefined;
      }
    }
    return outcomes;
  };
  /** Runs each unit in a savepoint of its own, so one that throws is undone alone. */
  const runEach = async (batch: Queued[]): Promise<Outcome[]> => {
    const outcomes: Outcome[] = [];
    for (const { work } of batch) {
      savepoint();
      try {
        outcomes.push({ ok: true, value: await work(write) });
        release();
      } catch (error) {
        rollbackToSavepoint();
        release();
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  };

  const drain = async () => {
    draining = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, COMMIT_AT_TRANSACTIONS);
      let outcomes: Outcome[];
      try {
        if (syncer?.failed) throw syncer.failed;
        begin();
        // Savepoints only when a unit failed: at each one FTS5 writes its pending index out (a segment per unit),
        // which doubled the cost of an indexed write. A lone unit that failed is rolled back with its transaction.
        const plain = await runPlainly(batch);
        if (plain && plain[0]?.ok === false) {
          rollback();
          outcomes = plain;
        } else if (plain) {
          await afterWaitingReads();
          commit();
          outcomes = plain;
        } else {
          rollback();
          begin();
          outcomes = await runEach(batch);
          await afterWaitingReads();
          commit();
        }
      } catch (error) {
        // BEGIN or COMMIT failed (busy, disk full): nothing of the batch happened.
        if (writer.inTransaction) rollback();
        for (const queued of batch) queued.reject(error);
        continue;
      }
      const settle = () =>
        outcomes.forEach((outcome, i) => (outcome.ok ? batch[i]!.resolve(outcome.value) : batch[i]!.reject(outcome.error)));
      if (!syncer || !outcomes.some((outcome) => outcome.ok)) settle();
      else
        syncer
          .afterCommit()
          .then(settle, (error: unknown) => outcomes.forEach((outcome, i) => batch[i]!.reject(outcome.ok ? error : outcome.error)));
    }
    draining = false;
  };

  const schedule = flushWhenArrivalsStop(
    () => queue.length,
    COMMIT_AT_TRANSACTIONS,
    () => void drain(),
  );
  const transaction = <T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      queue.push({ work, resolve, reject });
      if (!draining) {
        draining = true;
        schedule();
      }
    });

  return {
    dialect: 'sqlite',
    all: (sql, params) => durably(() => read.all(sql, params)),
    get: (sql, params) => durably(() => read.get(sql, params)),
    // A lone write is a transaction of its own: run on the writer directly, it would join whichever is open.
    run: (sql, params) => transaction((tx) => tx.run(sql, params)),
    transaction,
    // The wal-index header moves with every commit to the file, the writer's as well as another process's.
    commitStamp: commitStamp(reader),
    async migrate({ owner, folder }) {
      applyMigrations(writer, { owner, folder });
      await syncer?.afterCommit();
    },
    async close() {
      queue = [];
      await syncer?.pending()?.catch(() => {});
      reader.close();
      writer.close();
      (syncFile as Partial<ReturnType<typeof fdatasyncFile>>).close?.();
    },
  };
}

function isWal(db: Database.Database): boolean {
  return !db.memory && db.pragma('journal_mode', { simple: true }) === 'wal';
}

/**
 * Prepared statements kept per connection before the cache starts over: texts with lists of every length (`IN (?, …)`
 * of 1 to 500 urns, batches of any size) would otherwise keep a compiled statement each, for the life of the process.
 */
const MAX_PREPARED = 1000;
const NO_PARAMS: readonly unknown[] = Object.freeze([]);

/** Statements on one connection, prepared once per text. */
function executor(db: Database.Database): SqlExecutor {
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= MAX_PREPARED) statements.clear();
      statements.set(sql, (statement = db.prepare(sql)));
    }
    return statement;
  };
  // SQLite has no boolean: bind them as 0/1, as PostgreSQL callers write them. Most statements have none, and their
  // parameters are passed as given (no copy per statement).
  const bind = (params: readonly unknown[] = NO_PARAMS): readonly unknown[] => {
    for (const p of params) if (typeof p === 'boolean') return params.map((q) => (typeof q === 'boolean' ? Number(q) : q));
    return params;
  };
  return {
    dialect: 'sqlite',
    all: async <Row>(sql: string, params?: readonly unknown[]) => prepare(sql).all(...bind(params)) as Row[],
    get: async <Row>(sql: string, params?: readonly unknown[]) => prepare(sql).get(...bind(params)) as Row | undefined,
    run: async (sql: string, params?: readonly unknown[]) => ({ changes: prepare(sql).run(...bind(params)).changes }),
  };
}
