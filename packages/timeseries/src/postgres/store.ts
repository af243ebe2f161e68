import type { SqlDatabase, SqlExecutor } from '@mds/db';
import { conflict } from '@mds/schema';
import { randomInt, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import type {
  DeleteByUrnRequest,
  IndexSize,
  TaskCounts,
  TaskRef,
  TaskStatus,
  TimeseriesDocument,
  TimeseriesStore,
  TimeseriesValue,
  TruncationCount,
  TruncationRequest,
  ValuesRequest,
} from '../port.ts';
import { parseIndexName } from '../registry.ts';
import { toTaskStatus, type TaskProgress } from '../task-status.ts';
import {
  NOW_MS,
  ROUTE_COLUMNS,
  TASK_COLUMNS,
  createIndexTableSql,
  isUndefinedTable,
  lockDdl,
  lockIndex,
  quote,
  tableName,
  upsertSql,
  type IndexRoute,
} from './sql.ts';
import { READ_COMMITTED, RunControl, dropScratch, runTruncation } from './truncation.ts';

export interface PostgresStoreOptions {
  /** The server's database (the storage port on PostgreSQL); the store never closes it. */
  db: SqlDatabase;
  indexPrefix: string;
  /** How often this store marks the truncations it runs as alive. Default 5 s. */
  heartbeatMs?: number;
  /**
   * A running truncation whose heartbeat is older than this is taken for dead (its replica crashed, was killed or
   * lost the database) and marked failed by whichever replica looks at it. Default 60 s.
   */
  staleAfterMs?: number;
}

const HEARTBEAT_MS = 5_000;
const STALE_AFTER_MS = 60_000;
/** How long close() waits for running truncations to finish their current batch and record that they stopped. */
const STOP_GRACE_MS = 10_000;
/** A reader that met a table a reindex swapped out reads where the index is now; more than twice is not a race. */
const READ_ATTEMPTS = 3;

const NODE_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

interface TaskRow extends TaskProgress {
  indexName: string;
  scratchTable: string | null;
  /** The database clock when the row was read. */
  now: number;
}

interface Running {
  control: RunControl;
  done: Promise<void>;
}

/** Opens the store on `db` (PostgreSQL): applies its migrations, then settles what replicas that died left behind. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PostgresStore> {
  const { db } = options;
  if (db.dialect !== 'postgres') throw new Error(`The PostgreSQL time-series store needs a PostgreSQL database (got ${db.dialect}).`);
  await db.migrate({ owner: 'timeseries', folder: fileURLToPath(new URL('../../migrations/postgres', import.meta.url)) });
  const store = new PostgresStore(db, await nodeIdOf(db), options);
  await store.recover();
  return store;
}

/** The node id of this database, first part of every task id: one for all replicas, so any of them answers for a task. */
async function nodeIdOf(db: SqlDatabase): Promise<string> {
  const fresh = Array.from({ length: 22 }, () => NODE_ID_ALPHABET[randomInt(NODE_ID_ALPHABET.length)]).join('');
  await db.run(`INSERT INTO timeseries_meta (key, value) VALUES ('node_id', ?) ON CONFLICT (key) DO NOTHING`, [fresh]);
  return (await db.get<{ value: string }>(`SELECT value FROM timeseries_meta WHERE key = 'node_id'`))!.value;
}

/** Inclusive bounds on timestampMillis, a side left open reaching as far as any stored timestamp. */
function windowOf(request: { startTimeMillis?: number; endTimeMillis?: number }): [number, number] {
  return [request.startTimeMillis ?? Number.MIN_SAFE_INTEGER, request.endTimeMillis ?? Number.MAX_SAFE_INTEGER];
}

/**
 * The id of index `name` in `tx`, its (empty) table made first if it has none; the DDL lock is held until `tx` ends,
 * so an index never gets two tables. Also used by the import of an embedded store (import.ts).
 */
export async function createIndexIn(tx: SqlExecutor, name: string): Promise<number> {
  await lockDdl(tx);
  const existing = await tx.get<{ id: number }>('SELECT id FROM timeseries_indices WHERE name = ?', [name]);
  if (existing) return existing.id;
  const table = tableName((await tx.get<{ n: number }>(`SELECT nextval('timeseries_table_number') AS n`))!.n);
  for (const sql of createIndexTableSql(table)) await tx.run(sql);
  return (await tx.get<{ id: number }>('INSERT INTO timeseries_indices (name, table_name) VALUES (?, ?) RETURNING id', [name, table]))!.id;
}

/** Key order of an index table (ids are hex, so code-unit order is the bytewise order of COLLATE "C"). */
const byKey = (a: TimeseriesDocument, b: TimeseriesDocument) =>
  a.timestampMillis - b.timestampMillis || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** A batch's rows as the column arrays of upsertSql (and of the import's inserts, import.ts). */
export function columnsOf(rows: readonly TimeseriesDocument[]): unknown[][] {
  return [
    rows.map((d) => d.timestampMillis),
    rows.map((d) => d.id),
    rows.map((d) => d.urn),
    rows.map((d) => d.eventGranularity),
    rows.map((d) => d.messageId),
    rows.map((d) => (d.partitionSpec === null ? null : JSON.stringify(d.partitionSpec))),
    rows.map((d) => d.runId),
    rows.map((d) => d.eventJson),
    rows.map((d) => d.systemMetadataJson),
  ];
}

/**
 * The time-series store on PostgreSQL, for replicas sharing one database: documents, index sizes, truncation tasks
 * and their progress all live in the database, so every replica answers the same. One table per index (see
 * sql.ts); truncations run on the replica that started them, in batches of short transactions, and are taken over
 * by no one: a task whose replica stops heart-beating is marked failed by the first replica that looks at it.
 */
export class PostgresStore implements TimeseriesStore {
  readonly kind = 'postgres';
  readonly indexPrefix: string;
  /** Identifies this store instance as the owner of the tasks it runs (host and pid, for whoever reads the table). */
  readonly owner = `${hostname()}:${process.pid}:${randomUUID()}`;
  private readonly heartbeatMs: number;
  private readonly staleAfterMs: number;
  /** Index name → its id in timeseries_indices (rows are never deleted, so this never goes stale). */
  private readonly ids = new Map<string, number>();
  private readonly running = new Map<number, Running>();
  /** Scratch tables being dropped in the background, awaited by close(). */
  private readonly cleanups = new Set<Promise<unknown>>();
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly db: SqlDatabase,
    readonly nodeId: string,
    options: PostgresStoreOptions,
  ) {
    this.indexPrefix = options.indexPrefix;
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    this.staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
    this.heartbeat = setInterval(() => this.beat(), this.heartbeatMs);
    this.heartbeat.unref();
  }

  async write(documents: readonly TimeseriesDocument[]): Promise<void> {
    this.assertOpen();
    if (documents.length === 0) return;
    // Per index, distinct by key (the last of a key wins, as if written one after another), in key order: concurrent
    // batches then lock the rows they share in the same order and never wait for each other in a circle.
    const groups = new Map<string, Map<string, TimeseriesDocument>>();
    for (const doc of documents) {
      let group = groups.get(doc.index);
      if (!group) groups.set(doc.index, (group = new Map()));
      group.set(`${doc.timestampMillis}\u0000${doc.id}`, doc);
    }
    const ids = await this.indexIds([...groups.keys()]);
    const order = [...groups.keys()].sort((a, b) => ids.get(a)! - ids.get(b)!);
    await this.db.transaction(async (tx) => {
      for (const index of order) {
        const route = await this.lockedRoute(tx, ids.get(index)!);
        const rows = [...groups.get(index)!.values()].sort(byKey);
        await tx.run(upsertSql(route.table), columnsOf(rows));
        if (route.copyTable !== null) {
          const survivors = rows.filter((row) => row.timestampMillis > route.copyAfter!);
          if (survivors.length > 0) await tx.run(upsertSql(route.copyTable), columnsOf(survivors));
        }
      }
    }, READ_COMMITTED);
  }

  async indexSizes(): Promise<IndexSize[]> {
    this.assertOpen();
    // The files of the table, its TOAST and its two B-trees: what the index holds on disk, the same from any replica.
    const rows = await this.db.all<IndexSize>(
      `SELECT name AS "indexName", coalesce(pg_total_relation_size(to_regclass(quote_ident(table_name))), 0) AS "sizeBytes"
       FROM timeseries_indices`,
    );
    return rows.filter((row) => parseIndexName(this.indexPrefix, row.indexName));
  }

  async values(request: ValuesRequest): Promise<TimeseriesValue[]> {
    this.assertOpen();
    if (request.limit <= 0) return [];
    const direction = request.order === 'ASCENDING' ? 'ASC' : 'DESC';
    return this.onTable(request.index, [], (table) =>
      this.db.all<TimeseriesValue>(
        `SELECT document AS "eventJson", system_metadata AS "systemMetadataJson", timestamp_millis AS "timestampMillis"
         FROM ${quote(table)} WHERE urn = ? AND timestamp_millis BETWEEN ? AND ?
         ORDER BY timestamp_millis ${direction}, id ${direction} LIMIT ?`,
        [request.urn, ...windowOf(request), request.limit],
      ),
    );
  }

  async deleteByUrn(request: DeleteByUrnRequest): Promise<number> {
    this.assertOpen();
    const known = await this.db.all<{ id: number; name: string }>('SELECT id, name FROM timeseries_indices');
    const wanted = request.indices ? new Set(request.indices) : undefined;
    const targets = known
      .filter(({ name }) => (wanted ? wanted.has(name) : parseIndexName(this.indexPrefix, name)))
      .sort((a, b) => a.id - b.id);
    if (targets.length === 0) return 0;
    const where = 'urn = ? AND timestamp_millis BETWEEN ? AND ?';
    const params = [request.urn, ...windowOf(request)];
    return this.db.transaction(async (tx) => {
      let deleted = 0;
      for (const { id } of targets) {
        const route = await this.lockedRoute(tx, id);
        deleted += (await tx.run(`DELETE FROM ${quote(route.table)} WHERE ${where}`, params)).changes;
        if (route.copyTable !== null) await tx.run(`DELETE FROM ${quote(route.copyTable)} WHERE ${where}`, params);
      }
      return deleted;
    }, READ_COMMITTED);
  }

  async countForTruncation(index: string, endTimeMillis: number): Promise<TruncationCount> {
    this.assertOpen();
    // One statement, so `matching` and `total` come from the same snapshot.
    return this.onTable(
      index,
      { matching: 0, total: 0 },
      async (table) =>
        (await this.db.get<TruncationCount>(
          `SELECT count(*) FILTER (WHERE timestamp_millis <= ?) AS matching, count(*) AS total FROM ${quote(table)}`,
          [endTimeMillis],
        ))!,
    );
  }

  async startTruncation(request: TruncationRequest): Promise<string> {
    this.assertOpen();
    // An index never written is truncated like an empty one: the task completes at once with nothing to do.
    const indexId = (await this.indexIds([request.index])).get(request.index)!;
    // A dead replica's task on this index must not block this one: it is marked failed, its copy dropped (nothing
    // may still be mirrored into a copy of an earlier task when this one starts its own).
    await this.settleStale('index_name = ?', [request.index], { await: true });
    await this.dropLeftovers('t.index_name = ?', [request.index]);
    const taskNo = await this.db.transaction(
      async (tx) => {
        const running = await tx.get<{ id: number }>(`SELECT id FROM timeseries_tasks WHERE index_name = ? AND state = 'running'`, [
          request.index,
        ]);
        if (running) {
          throw conflict(
            `A truncation of ${request.index} is already running as task ${this.nodeId}:${running.id}; ` +
              'wait for it to complete (poll getEsTaskStatus) before starting another.',
          );
        }
        const created = await tx.get<{ id: number }>(
          `INSERT INTO timeseries_tasks
             (index_name, mode, end_time_millis, batch_size, rows_per_second, state, started_at, heartbeat_at, owner)
           VALUES (?, ?, ?, ?, ?, 'running', ${NOW_MS}, ${NOW_MS}, ?) RETURNING id`,
          [request.index, request.mode, request.endTimeMillis, request.batchSize, request.rowsPerSecond ?? null, this.owner],
        );
        return created!.id;
      },
      // Starts on one index, on any replica, one at a time (the unique index on running tasks backs this up).
      { lockKeys: [`timeseries:truncation:${request.index}`] },
    );
    const control = new RunControl();
    const done = runTruncation({ db: this.db, owner: this.owner, taskNo, indexId, request, control }).finally(() =>
      this.running.delete(taskNo),
    );
    this.running.set(taskNo, { control, done });
    return `${this.nodeId}:${taskNo}`;
  }

  async taskStatus(task: TaskRef): Promise<TaskStatus | null> {
    this.assertOpen();
    if (task.node !== this.nodeId) return null;
    await this.settleStale('id = ?', [task.id]);
    const row = await this.db.get<TaskRow>(`SELECT ${TASK_COLUMNS} FROM timeseries_tasks WHERE id = ?`, [task.id]);
    return row ? toTaskStatus(this.nodeId, row, row.now) : null;
  }

  async taskCounts(): Promise<TaskCounts> {
    await this.settleStale('TRUE', []);
    const counts: TaskCounts = { running: 0, completed: 0, failed: 0 };
    const rows = await this.db.all<{ state: keyof TaskCounts; n: number }>(
      'SELECT state, count(*) AS n FROM timeseries_tasks GROUP BY state',
    );
    for (const { state, n } of rows) counts[state] = n;
    return counts;
  }

  /** The database's own readiness is the server's storage check; this store needs nothing more. */
  async checkReady(): Promise<void> {}

  /**
   * Stops running truncations after their current batch (they record that mds was shut down) and waits for
   * background clean-ups. The database stays open: it is the server's.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const { control } of this.running.values()) control.stop();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)));
    // A task still in a batch after the grace period is left to go stale, as if this process had died.
    await Promise.race([Promise.all([...this.running.values()].map((r) => r.done)), grace]);
    clearTimeout(timer);
    await Promise.allSettled([...this.cleanups]);
  }

  /**
   * Tests only: stops like a killed process — tasks are abandoned after their current statement, nothing is
   * recorded, and the heartbeat stops, so after `staleAfterMs` any store takes the tasks for dead.
   */
  async simulateCrash(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const { control } of this.running.values()) control.crash();
    await Promise.all([...this.running.values()].map((r) => r.done));
    await Promise.allSettled([...this.cleanups]);
  }

  /**
   * At open: running tasks of replicas that stopped heart-beating are marked failed, and tables that tasks no longer
   * running left behind (a crash between a task's end and its clean-up) are dropped.
   */
  async recover(): Promise<void> {
    await this.settleStale('TRUE', [], { await: true });
    await this.dropLeftovers('TRUE', []);
  }

  /** Drops the scratch tables of ended tasks matching `where` whose clean-up never ran or failed (best effort). */
  private async dropLeftovers(where: string, params: unknown[]): Promise<void> {
    const leftovers = await this.db.all<{ taskNo: number; indexId: number; table: string }>(
      `SELECT t.id AS "taskNo", i.id AS "indexId", t.scratch_table AS "table"
       FROM timeseries_tasks t JOIN timeseries_indices i ON i.name = t.index_name
       WHERE t.state <> 'running' AND t.scratch_table IS NOT NULL AND (${where})`,
      params,
    );
    for (const leftover of leftovers) await dropScratch(this.db, leftover).catch(() => undefined);
  }

  /**
   * Marks failed the running tasks matching `where` whose heartbeat is older than staleAfterMs, and drops their
   * scratch tables (in the background unless `await`). The database's clock decides, the same for every replica.
   */
  private async settleStale(where: string, params: unknown[], options: { await?: boolean } = {}): Promise<void> {
    const message =
      'Interrupted: the mds replica running the truncation stopped (crash, restart or lost database connection) and ' +
      `has given no sign of life for ${Math.round(this.staleAfterMs / 1000)} s; %s of %s rows had been deleted. Run the truncation again.`;
    const settled = await this.db.all<{ taskNo: number; indexName: string; table: string | null }>(
      `UPDATE timeseries_tasks SET state = 'failed', finished_at = heartbeat_at, error = format(?::text, deleted, total)
       WHERE state = 'running' AND heartbeat_at < ${NOW_MS} - ? AND (${where})
       RETURNING id AS "taskNo", index_name AS "indexName", scratch_table AS "table"`,
      [message, this.staleAfterMs, ...params],
    );
    const drops = settled.flatMap(({ taskNo, indexName, table }) => {
      if (table === null) return [];
      const drop = (async () => {
        const indexId = (await this.indexIds([indexName])).get(indexName)!;
        await dropScratch(this.db, { taskNo, indexId, table });
      })().catch(() => undefined);
      this.cleanups.add(drop);
      void drop.finally(() => this.cleanups.delete(drop));
      return [drop];
    });
    if (options.await) await Promise.all(drops);
  }

  /** Keeps the tasks this store runs alive in the eyes of other replicas. */
  private beat(): void {
    if (this.running.size === 0) return;
    const beat = this.db
      .run(`UPDATE timeseries_tasks SET heartbeat_at = ${NOW_MS} WHERE owner = ? AND state = 'running' AND id = ANY(?)`, [
        this.owner,
        [...this.running.keys()],
      ])
      .catch(() => undefined); // the database unreachable: missed beats are what staleness is about
    this.cleanups.add(beat);
    void beat.finally(() => this.cleanups.delete(beat));
  }

  /** Ids of indices, creating the tables of those never seen (by any replica). */
  private async indexIds(names: readonly string[]): Promise<Map<string, number>> {
    const missing = names.filter((name) => !this.ids.has(name));
    if (missing.length > 0) {
      for (const { id, name } of await this.db.all<{ id: number; name: string }>(
        'SELECT id, name FROM timeseries_indices WHERE name = ANY(?)',
        [missing],
      )) {
        this.ids.set(name, id);
      }
      for (const name of missing) if (!this.ids.has(name)) this.ids.set(name, await this.createIndex(name));
    }
    return this.ids;
  }

  /**
   * An index's table, made in its own transaction before the write that needs it (a failed batch leaves an empty
   * table, as on SQLite). One creation at a time across replicas, so an index never gets two tables.
   */
  private createIndex(name: string): Promise<number> {
    return this.db.transaction((tx) => createIndexIn(tx, name), READ_COMMITTED);
  }

  /** Where an index's rows are, holding its lock shared until the transaction ends (a reindex cannot move them meanwhile). */
  private async lockedRoute(tx: SqlExecutor, indexId: number): Promise<IndexRoute> {
    await lockIndex(tx, indexId, 'shared');
    return (await tx.get<IndexRoute>(`SELECT ${ROUTE_COLUMNS} FROM timeseries_indices WHERE id = ?`, [indexId]))!;
  }

  /**
   * A read of an index's table without any lock: `empty` for an index never written. A reader that meets the table
   * dropped (a reindex swapped it out between the look-up and the read) reads where the index is now.
   */
  private async onTable<T>(index: string, empty: T, read: (table: string) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const route = await this.db.get<{ table: string }>('SELECT table_name AS "table" FROM timeseries_indices WHERE name = ?', [index]);
      if (!route) return empty;
      try {
        return await read(route.table);
      } catch (error) {
        if (!isUndefinedTable(error) || attempt >= READ_ATTEMPTS) throw error;
      }
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The time-series store is closed.');
  }
}
