// @ts-check
/**
 * SQL shared by the main thread and the worker threads of the embedded store. Plain JavaScript (type-checked
 * through JSDoc) because a worker thread loads files with plain Node, without the TypeScript loader of vitest/tsx.
 */

export const TASKS_TABLE = 'timeseries_tasks';
export const VERSIONS_TABLE = 'timeseries_index_versions';
export const META_TABLE = 'timeseries_meta';

/**
 * Page cache of each worker thread's connection, in KiB. A connection's cache is private and, once filled, stays
 * resident as long as the thread lives: at 32 to 64 MiB per worker the caches were about 115 MB of the server's peak
 * RSS. Ingestion appends at the right edge of each index and truncation and dbstat walk their ranges once, so a
 * small cache did not slow them down (measured with bench/: ingestion, getIndexSizes, truncation).
 */
export const WORKER_CACHE_KIB = 4096;

/** Columns of an index table, in table order. */
export const INDEX_COLUMNS = [
  'timestampMillis',
  'id',
  'urn',
  'eventGranularity',
  'messageId',
  'partitionSpec',
  'runId',
  'document',
  'systemMetadata',
];

/** @param {string} name */
export function quote(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * One table per index. The identity hash covers timestampMillis, so (timestampMillis, id) is the identity key;
 * clustering the table on it (WITHOUT ROWID) makes "everything up to t" one contiguous key range: truncation is a
 * range delete, and no secondary index has to be maintained on any write or delete. Reads and deletes of one
 * entity's points scan the table instead (in a worker thread): an index on urn made every ingested row and every
 * truncated row pay for a random b-tree update, which cut the delete-by-query truncation by an order of magnitude.
 * @param {string} name
 */
export function createIndexTableSql(name) {
  return `CREATE TABLE IF NOT EXISTS ${quote(name)} (
    timestampMillis INTEGER NOT NULL,
    id TEXT NOT NULL,
    urn TEXT NOT NULL,
    eventGranularity TEXT,
    messageId TEXT,
    partitionSpec TEXT,
    runId TEXT,
    document TEXT NOT NULL,
    systemMetadata TEXT,
    PRIMARY KEY (timestampMillis, id)
  ) WITHOUT ROWID`;
}

/** Marks an index as written so cached sizes are recomputed; part of every writing transaction. */
export const BUMP_VERSION_SQL = `INSERT INTO ${VERSIONS_TABLE} (name, version) VALUES (?, 1)
  ON CONFLICT (name) DO UPDATE SET version = version + 1`;

/**
 * Scratch tables and triggers of a reindex, named after the task so leftovers of a dead task can be recognised.
 * @param {string} index @param {number} taskNo
 */
export const reindexTableName = (index, taskNo) => `${index}__reindex_${taskNo}`;
/** @param {string} index @param {number} taskNo */
export const retiredTableName = (index, taskNo) => `${index}__retired_${taskNo}`;
/** @param {string} index @param {number} taskNo @param {'insert' | 'update' | 'delete'} event */
export const mirrorTriggerName = (index, taskNo, event) => `${index}__reindex_${taskNo}_${event}`;

/** Matches the scratch names above: index, kind, task number. */
export const SCRATCH_NAME = /^(.+)__(reindex|retired)_(\d+)(?:_(?:insert|update|delete))?$/;

/** The running-time and progress columns every batch of a truncation updates, in the same transaction. */
export const PROGRESS_SQL = `UPDATE ${TASKS_TABLE}
  SET deleted = deleted + ?, created = created + ?, batches = batches + 1, heartbeat_at = ?
  WHERE id = ?`;

export const SET_TOTAL_SQL = `UPDATE ${TASKS_TABLE} SET total = ? WHERE id = ?`;

export const HEARTBEAT_SQL = `UPDATE ${TASKS_TABLE} SET heartbeat_at = ? WHERE id = ?`;

export const FINISH_SQL = `UPDATE ${TASKS_TABLE}
  SET state = ?, error = ?, finished_at = ?, heartbeat_at = ?
  WHERE id = ? AND state = 'running'`;

/** Bytes a table and its indexes occupy: every page of their b-trees, free space included. */
export const TABLE_BYTES_SQL = `SELECT coalesce(sum(pgsize), 0) AS bytes FROM dbstat
  WHERE name IN (SELECT name FROM sqlite_schema WHERE tbl_name = ?) AND aggregate = TRUE`;

/**
 * Write-lock fairness between the threads of one process. SQLite's busy handler sleeps and retries, so a
 * truncation taking the lock again right after each batch could starve ingestion for seconds. A writer announces
 * itself in a shared counter while it waits and writes; a truncation checks it between batches and lets it go first.
 * @template T
 * @param {SharedArrayBuffer} contention
 * @param {() => T} write
 * @returns {T}
 */
export function whileWriting(contention, write) {
  const waiting = new Int32Array(contention);
  Atomics.add(waiting, 0, 1);
  try {
    return write();
  } finally {
    Atomics.sub(waiting, 0, 1);
    Atomics.notify(waiting, 0);
  }
}

/**
 * Called by truncation workers between batches: waits while writers are waiting, at most `maxWaitMs` (so a
 * steady stream of writes slows a truncation down but cannot stop it).
 * @param {SharedArrayBuffer} contention
 * @param {number} maxWaitMs
 */
export function yieldToWriters(contention, maxWaitMs) {
  const waiting = new Int32Array(contention);
  const deadline = Date.now() + maxWaitMs;
  for (let n = Atomics.load(waiting, 0); n > 0 && Date.now() < deadline; n = Atomics.load(waiting, 0)) {
    Atomics.wait(waiting, 0, n, Math.max(1, deadline - Date.now()));
  }
}
