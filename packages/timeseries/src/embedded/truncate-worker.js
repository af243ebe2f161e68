// @ts-check
/**
 * Runs one truncation on its own SQLite connection, off the server's event loop. Every batch is one short
 * transaction that also records the task's progress, so the status row always matches the data, across crashes.
 * The main thread stops it through a shared flag (checked between batches); it never leaves a half-done swap.
 */
import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import {
  BUMP_VERSION_SQL,
  FINISH_SQL,
  HEARTBEAT_SQL,
  INDEX_COLUMNS,
  PROGRESS_SQL,
  SET_TOTAL_SQL,
  WORKER_CACHE_KIB,
  createIndexTableSql,
  mirrorTriggerName,
  quote,
  reindexTableName,
  retiredTableName,
  yieldToWriters,
} from './sql.js';

/**
 * @typedef {object} TruncateJob
 * @property {string} file
 * @property {number} taskNo
 * @property {string} index
 * @property {'delete' | 'reindex'} mode
 * @property {number} endTimeMillis
 * @property {number} batchSize
 * @property {number} busyTimeoutMs
 * @property {number | undefined} rowsPerSecond
 * @property {SharedArrayBuffer} stopFlag  Int32 #0 becomes 1 when the task must stop.
 * @property {SharedArrayBuffer} contention  Writers of this process waiting for the write lock (see sql.js).
 */

class Interrupted extends Error {}

/** Changes to the index table that a reindex mirrors into its copy while it copies. */
const MIRRORED_EVENTS = /** @type {const} */ (['insert', 'update', 'delete']);

const HEARTBEAT_EVERY_MS = 5_000;
/** Longest a truncation waits between two batches for waiting writers to go first. */
const MAX_YIELD_MS = 200;
/** Pages freed per incremental_vacuum step: small steps keep each write lock short. */
const VACUUM_STEP_PAGES = 256;

/** @type {TruncateJob} */
const job = workerData;
const stop = new Int32Array(job.stopFlag);
const table = quote(job.index);
const key = 'timestampMillis, id';

const db = new Database(job.file);
db.pragma('journal_mode = WAL');
// A batch lost to a power cut only makes the task look less advanced (data and progress commit together).
db.pragma('synchronous = NORMAL');
db.pragma(`busy_timeout = ${Math.max(1, Math.round(job.busyTimeoutMs))}`);
db.pragma(`cache_size = -${WORKER_CACHE_KIB}`);
db.pragma('journal_size_limit = 67108864');

const progress = db.prepare(PROGRESS_SQL);
const heartbeat = db.prepare(HEARTBEAT_SQL);
const finish = db.prepare(FINISH_SQL);
const bumpVersion = db.prepare(BUMP_VERSION_SQL);
const setTotal = db.prepare(SET_TOTAL_SQL);
const countToDelete = db.prepare(`SELECT count(*) FROM ${table} WHERE timestampMillis <= ?`).pluck();
const startedAt = Date.now();
let rowsDone = 0;

/** Between two batches: throws Interrupted once the main thread asked to stop, else lets waiting writers go first. */
function checkStop() {
  if (Atomics.load(stop, 0) !== 0) throw new Interrupted();
  yieldToWriters(job.contention, MAX_YIELD_MS);
}

/** Waits (waking early on stop) so that rows/second stays under the throttle; keeps the heartbeat fresh. */
function throttle() {
  if (!job.rowsPerSecond) return;
  let waitMs = (rowsDone / job.rowsPerSecond) * 1000 - (Date.now() - startedAt);
  while (waitMs > 0) {
    Atomics.wait(stop, 0, 0, Math.min(waitMs, HEARTBEAT_EVERY_MS));
    checkStop();
    heartbeat.run(Date.now(), job.taskNo);
    waitMs = (rowsDone / job.rowsPerSecond) * 1000 - (Date.now() - startedAt);
  }
}

/** The key of the n-th row (0-based, in key order) matching `where`: the last row of the next batch. */
function nthKeyAfter(/** @type {string} */ where) {
  return db.prepare(`SELECT ${key} FROM ${table} WHERE ${where} ORDER BY ${key} LIMIT 1 OFFSET ?`);
}

/** Counts the rows to delete (a read: no write lock held meanwhile) and records it as the task's total. */
function recordTotal() {
  const total = /** @type {number} */ (countToDelete.get(job.endTimeMillis));
  setTotal.run(total, job.taskNo);
  return total;
}

function runDelete() {
  const end = job.endTimeMillis;
  const last = nthKeyAfter('timestampMillis <= ?');
  const deleteUpTo = db.prepare(`DELETE FROM ${table} WHERE (${key}) <= (?, ?)`);
  const deleteRest = db.prepare(`DELETE FROM ${table} WHERE timestampMillis <= ?`);
  const anyLeft = db.prepare(`SELECT 1 FROM ${table} WHERE timestampMillis <= ? LIMIT 1`).pluck();
  const batch = db.transaction(() => {
    const bound = /** @type {{timestampMillis: number, id: string} | undefined} */ (last.get(end, job.batchSize - 1));
    const { changes } = bound ? deleteUpTo.run(bound.timestampMillis, bound.id) : deleteRest.run(end);
    progress.run(changes, 0, Date.now(), job.taskNo);
    bumpVersion.run(job.index);
    return { changes, more: bound !== undefined && anyLeft.get(end) !== undefined };
  });
  const total = recordTotal();
  for (let more = total !== 0; more;) {
    checkStop();
    const result = batch.immediate();
    rowsDone += result.changes;
    more = result.more;
    if (more) throttle();
  }
  finish.run('completed', null, Date.now(), Date.now(), job.taskNo);
}

function runReindex() {
  const end = job.endTimeMillis;
  const fresh = reindexTableName(job.index, job.taskNo);
  const retired = retiredTableName(job.index, job.taskNo);
  const columns = INDEX_COLUMNS.join(', ');
  const values = INDEX_COLUMNS.map((c) => `NEW.${c}`).join(', ');
  const triggers = MIRRORED_EVENTS.map((event) => mirrorTriggerName(job.index, job.taskNo, event));

  // 1. An empty copy, plus triggers that mirror every write and delete made meanwhile (by ingestion or deleteByUrn
  //    on other connections) into it, so the copy never misses a row written after its snapshot nor keeps one
  //    deleted after it was copied.
  recordTotal();
  db.transaction(() => {
    db.exec(createIndexTableSql(fresh));
    for (const event of ['INSERT', 'UPDATE']) {
      db.exec(`CREATE TRIGGER ${quote(mirrorTriggerName(job.index, job.taskNo, event === 'INSERT' ? 'insert' : 'update'))}
        AFTER ${event} ON ${table}
        WHEN NEW.timestampMillis > ${end}
        BEGIN INSERT OR REPLACE INTO ${quote(fresh)} (${columns}) VALUES (${values}); END`);
    }
    db.exec(`CREATE TRIGGER ${quote(mirrorTriggerName(job.index, job.taskNo, 'delete'))} AFTER DELETE ON ${table}
      WHEN OLD.timestampMillis > ${end}
      BEGIN DELETE FROM ${quote(fresh)} WHERE timestampMillis = OLD.timestampMillis AND id = OLD.id; END`);
  }).immediate();

  // 2. Copy the survivors in key order, one batch per transaction.
  const last = nthKeyAfter('(timestampMillis, id) > (?, ?)');
  const copyUpTo = db.prepare(`INSERT OR REPLACE INTO ${quote(fresh)} (${columns})
    SELECT ${columns} FROM ${table} WHERE (${key}) > (?, ?) AND (${key}) <= (?, ?)`);
  const copyRest = db.prepare(`INSERT OR REPLACE INTO ${quote(fresh)} (${columns})
    SELECT ${columns} FROM ${table} WHERE (${key}) > (?, ?)`);
  const anyAfter = db.prepare(`SELECT 1 FROM ${table} WHERE (${key}) > (?, ?) LIMIT 1`).pluck();
  let cursor = { timestampMillis: end + 1, id: '' }; // just before the first survivor (ids are never empty)
  const batch = db.transaction(() => {
    const bound = /** @type {{timestampMillis: number, id: string} | undefined} */ (
      last.get(cursor.timestampMillis, cursor.id, job.batchSize - 1)
    );
    const { changes } = bound
      ? copyUpTo.run(cursor.timestampMillis, cursor.id, bound.timestampMillis, bound.id)
      : copyRest.run(cursor.timestampMillis, cursor.id);
    progress.run(0, changes, Date.now(), job.taskNo);
    return { changes, bound: bound && anyAfter.get(bound.timestampMillis, bound.id) !== undefined ? bound : undefined };
  });
  for (let more = anyAfter.get(cursor.timestampMillis, cursor.id) !== undefined; more;) {
    checkStop();
    const { changes, bound } = batch.immediate();
    rowsDone += changes;
    more = bound !== undefined;
    if (bound) {
      cursor = bound;
      throttle();
    }
  }

  // 3. The swap: one transaction, so readers see either the old table or the new one, never a mix or neither.
  //    The rows it drops are counted just before, outside the write lock (counting is the slow part).
  checkStop();
  const dropped = /** @type {number} */ (countToDelete.get(end));
  db.transaction(() => {
    for (const trigger of triggers) db.exec(`DROP TRIGGER IF EXISTS ${quote(trigger)}`);
    db.exec(`ALTER TABLE ${table} RENAME TO ${quote(retired)}`);
    db.exec(`ALTER TABLE ${quote(fresh)} RENAME TO ${table}`);
    progress.run(dropped, 0, Date.now(), job.taskNo);
    bumpVersion.run(job.index);
    finish.run('completed', null, Date.now(), Date.now(), job.taskNo);
  }).immediate();
  db.exec(`DROP TABLE IF EXISTS ${quote(retired)}`);
}

/** Leaves no scratch table or trigger of this task behind (the swap either happened entirely or not at all). */
function dropScratch() {
  for (const event of MIRRORED_EVENTS) {
    db.exec(`DROP TRIGGER IF EXISTS ${quote(mirrorTriggerName(job.index, job.taskNo, event))}`);
  }
  db.exec(`DROP TABLE IF EXISTS ${quote(reindexTableName(job.index, job.taskNo))}`);
  db.exec(`DROP TABLE IF EXISTS ${quote(retiredTableName(job.index, job.taskNo))}`);
}

/**
 * Gives freed pages back to the file system in small steps (each a short write transaction), then checkpoints so
 * the database file is cut to its new size. PASSIVE never blocks ingestion, unlike TRUNCATE; journal_size_limit
 * then trims the WAL file when the next writer restarts it.
 */
function returnFreePages() {
  const freePages = db.prepare('PRAGMA freelist_count').pluck();
  while (/** @type {number} */ (freePages.get()) > 0) {
    if (Atomics.load(stop, 0) !== 0) return;
    yieldToWriters(job.contention, MAX_YIELD_MS);
    db.pragma(`incremental_vacuum(${VACUUM_STEP_PAGES})`);
  }
  db.pragma('wal_checkpoint(PASSIVE)');
}

try {
  if (job.mode === 'delete') runDelete();
  else runReindex();
  returnFreePages();
} catch (error) {
  const reason =
    error instanceof Interrupted
      ? `Interrupted: mds was shut down while the truncation was running; ${job.mode === 'delete' ? `${rowsDone} rows were deleted` : 'nothing was deleted'}. Run the truncation again.`
      : `Truncation failed: ${error instanceof Error ? error.message : String(error)}`;
  try {
    if (job.mode === 'reindex') dropScratch();
    finish.run('failed', reason, Date.now(), Date.now(), job.taskNo);
  } catch {
    // The main thread marks the task failed when this worker exits with the task still running.
  }
} finally {
  db.close();
}
