// @ts-check
/**
 * Answers the expensive reads of the embedded store (row counts for dry runs, page sizes from dbstat, one entity's
 * points) on its own connection: on a million-row table each takes up to a few hundred milliseconds, which must not
 * stall the event loop.
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

/**
 * @typedef {object} ValuesQuery
 * @property {string} index
 * @property {string} urn
 * @property {number} from  Inclusive bounds on timestampMillis.
 * @property {number} to
 * @property {number} limit
 * @property {'ASC' | 'DESC'} direction
 */

/** One entity's points in a window (a scan of the table: see createIndexTableSql); ties in id order, for stable pages. */
function values(/** @type {ValuesQuery} */ { index, urn, from, to, limit, direction }) {
  if (!tableExists.get(index)) return [];
  return db
    .prepare(
      `SELECT document AS eventJson, systemMetadata AS systemMetadataJson, timestampMillis FROM ${quote(index)}
        WHERE urn = ? AND timestampMillis >= ? AND timestampMillis <= ?
        ORDER BY timestampMillis ${direction}, id ${direction} LIMIT ?`,
    )
    .all(urn, from, to, limit);
}

/** @typedef {{ op: 'count', index: string, endTimeMillis: number } | { op: 'bytes', tables: string[] } | ({ op: 'values' } & ValuesQuery)} ReadRequest */

serve(db, (/** @type {ReadRequest} */ request) => {
  if (request.op === 'count') return count(request.index, request.endTimeMillis);
  if (request.op === 'values') return values(request);
  return request.tables.map((name) => Number(tableBytes.get(name)));
});
