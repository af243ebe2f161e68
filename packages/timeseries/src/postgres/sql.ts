import type { SqlExecutor } from '@mds/db';

/**
 * SQL of the PostgreSQL store. Bookkeeping tables come from migrations/postgres; index tables are made here at run
 * time, one per index, named by number (`timeseries_t<n>`) and found through `timeseries_indices`.
 */

/** Milliseconds of the database's clock: heartbeats, staleness and run times use one clock for every replica. */
export const NOW_MS = `(extract(epoch FROM clock_timestamp()) * 1000)::bigint`;

/** Columns of an index table, in table order (also the order of `unnest` in UPSERT_SQL). */
export const INDEX_COLUMNS = [
  'timestamp_millis',
  'id',
  'urn',
  'event_granularity',
  'message_id',
  'partition_spec',
  'run_id',
  'document',
  'system_metadata',
] as const;

/** Only names this store made itself are ever put into SQL text, but quoted all the same. */
export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The name of the n-th index table (from the sequence `timeseries_table_number`). */
export const tableName = (n: number) => `timeseries_t${n}`;

/**
 * One table per index, keyed (timestamp_millis, id): the identity hash covers timestampMillis, so this is the
 * identity, and "everything up to t" is one range of the primary key (truncation walks it in key order). Unlike the
 * embedded store, an index on (urn, timestamp_millis) is kept: PostgreSQL has no worker thread to hide a scan of a
 * million rows behind, and one entity's points are read on every dataset page (datasetProfiles, the latest value);
 * ingestion and truncation pay one more B-tree entry per row for it.
 */
export function createIndexTableSql(table: string): string[] {
  return [
    `CREATE TABLE ${quote(table)} (
      timestamp_millis bigint NOT NULL,
      id text COLLATE "C" NOT NULL,
      urn text COLLATE "C" NOT NULL,
      event_granularity text,
      message_id text,
      partition_spec text,
      run_id text,
      document text NOT NULL,
      system_metadata text,
      PRIMARY KEY (timestamp_millis, id)
    )`,
    `CREATE INDEX ${quote(`${table}_urn`)} ON ${quote(table)} (urn, timestamp_millis)`,
  ];
}

/**
 * Insert or overwrite by identity, a whole batch in one statement: one array parameter per column (no limit on the
 * number of rows, one plan). Rows must be distinct by key (ON CONFLICT DO UPDATE may not touch a row twice).
 */
export function upsertSql(table: string): string {
  const updates = INDEX_COLUMNS.slice(2)
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  return `INSERT INTO ${quote(table)} (${INDEX_COLUMNS.join(', ')})
    SELECT * FROM unnest(?::bigint[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[])
    ON CONFLICT (timestamp_millis, id) DO UPDATE SET ${updates}`;
}

/**
 * Advisory locks of this store, in PostgreSQL's two-integer key space (the port's lockKeys use the one-bigint space,
 * so they never collide). Per index (objid = its id in timeseries_indices): writers and deleters hold it shared, a
 * reindex exclusive while it starts mirroring, copies a batch, or swaps; so no write is ever in flight with a stale
 * idea of where the index's rows are, and none runs while a batch is copied. DDL (objid 0): index tables are
 * created one at a time, so two replicas never both make a table for one index.
 */
const INDEX_LOCK = 0x74730001;
const DDL_LOCK = 0x74730000;

export async function lockIndex(tx: SqlExecutor, indexId: number, mode: 'shared' | 'exclusive'): Promise<void> {
  await tx.get(`SELECT pg_advisory_xact_lock${mode === 'shared' ? '_shared' : ''}(?, ?)`, [INDEX_LOCK, indexId]);
}

export async function lockDdl(tx: SqlExecutor): Promise<void> {
  await tx.get('SELECT pg_advisory_xact_lock(?, 0)', [DDL_LOCK]);
}

/** Where an index's rows are, as `timeseries_indices` says under the index's lock. */
export interface IndexRoute {
  id: number;
  name: string;
  table: string;
  /** The copy a running reindex mirrors rows newer than `copyAfter` into. */
  copyTable: string | null;
  copyAfter: number | null;
}

export const ROUTE_COLUMNS = `id, name, table_name AS "table", copy_table AS "copyTable", copy_after AS "copyAfter"`;

/** Task rows as read back; times are the database clock's, `now` included. */
export const TASK_COLUMNS = `id, index_name AS "indexName", mode, state, total, deleted, created, batches,
  rows_per_second AS "rowsPerSecond", started_at AS "startedAt", finished_at AS "finishedAt", error,
  scratch_table AS "scratchTable", ${NOW_MS} AS now`;

/** Progress of one batch, in the batch's transaction; matches no row once the task is no longer this owner's to run. */
export const PROGRESS_SQL = `UPDATE timeseries_tasks
  SET deleted = deleted + ?, created = created + ?, batches = batches + ?, heartbeat_at = ${NOW_MS}
  WHERE id = ? AND owner = ? AND state = 'running'`;

/** Ends a task of this owner (state, error); matches no row if it had already ended. */
export const FINISH_SQL = `UPDATE timeseries_tasks
  SET state = ?, error = ?, finished_at = ${NOW_MS}, heartbeat_at = ${NOW_MS}
  WHERE id = ? AND owner = ? AND state = 'running'`;

/** PostgreSQL's undefined_table: a reader met a table a reindex swapped out and dropped meanwhile. */
export const isUndefinedTable = (error: unknown) => (error as { code?: string } | undefined)?.code === '42P01';
