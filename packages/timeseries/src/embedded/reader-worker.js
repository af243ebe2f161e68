// @ts-check
/**
 * Answers the expensive reads of the embedded store (row counts for dry runs, page sizes from dbstat) on its own
 * connection: on a million-row table each takes a few hundred milliseconds, which must not stall the event loop.
 */
import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { serve } from './serve.js';
import { TABLE_BYTES_SQL, WORKER_CACHE_KIB, quote } from './sql.js';

/** @type {{ file: string }} */
const { file } = workerData;
const db = new Database(file);
db.pragma('busy_timeout = 5000');
db.pragma(`cache_size = -${WORKER_CACHE_KIB}`);

const tableBytes = db.prepare(TABLE_BYTES_SQL).pluck();
const tableExists = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck();

/** @param {string} index @param {number} endTimeMillis */
function count(index, endTimeMillis) {
  // One read transaction, so `matching` and `total` come from the same snapshot.
  return db.transaction(() => {
    if (!tableExists.get(index)) return { matching: 0, total: 0 };
    const table = quote(index);
    const matching = db.prepare(`SELECT count(*) FROM ${table} WHERE timestampMillis <= ?`).pluck().get(endTimeMillis);
    const total = db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    return { matching: Number(matching), total: Number(total) };
  })();
}

serve(db, (/** @type {{ op: 'count', index: string, endTimeMillis: number } | { op: 'bytes', tables: string[] }} */ request) =>
  request.op === 'count'
    ? count(request.index, request.endTimeMillis)
    : request.tables.map((name) => Number(tableBytes.get(name))),
);
