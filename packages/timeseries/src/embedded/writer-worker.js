// @ts-check
/**
 * Writes ingested documents, and deletes one entity's points, on its own connection, so the event loop never waits
 * for SQLite's write lock (a truncation holds it for one batch at a time) nor spends time writing. One request =
 * one transaction.
 */
import Database from 'better-sqlite3';
import { workerData } from 'node:worker_threads';
import { serve } from './serve.js';
import { BUMP_VERSION_SQL, INDEX_COLUMNS, WORKER_CACHE_KIB, createIndexTableSql, quote, whileWriting } from './sql.js';

/** @type {{ file: string, contention: SharedArrayBuffer }} */
const { file, contention } = workerData;
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL'); // an acknowledged ingestion survives a power cut
db.pragma('busy_timeout = 5000');
db.pragma(`cache_size = -${WORKER_CACHE_KIB}`);

const bumpVersion = db.prepare(BUMP_VERSION_SQL);
/** @type {Map<string, import('better-sqlite3').Statement>} */
const inserts = new Map();

/** @param {string} index */
function insertInto(index) {
  let insert = inserts.get(index);
  if (!insert) {
    db.exec(createIndexTableSql(index));
    insert = db.prepare(
      `INSERT OR REPLACE INTO ${quote(index)} (${INDEX_COLUMNS.join(', ')}) VALUES (${INDEX_COLUMNS.map(() => '?').join(', ')})`,
    );
    inserts.set(index, insert);
  }
  return insert;
}

/** Rows are `[index, ...values in INDEX_COLUMNS order]`. */
const write = db.transaction((/** @type {unknown[][]} */ rows) => {
  const touched = new Set();
  for (const [index, ...values] of rows) {
    insertInto(/** @type {string} */ (index)).run(values);
    touched.add(index);
  }
  for (const index of touched) bumpVersion.run(index);
});

const tableExists = db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck();

/**
 * @typedef {object} DeleteByUrn
 * @property {string[]} tables  Index tables to delete from; those that do not exist are skipped.
 * @property {string} urn
 * @property {number} from  Inclusive bounds on timestampMillis.
 * @property {number} to
 */

/** Deletes one entity's points in a window from every given table (a scan of each: see createIndexTableSql). */
const deleteByUrn = db.transaction((/** @type {DeleteByUrn} */ { tables, urn, from, to }) => {
  let deleted = 0;
  for (const table of new Set(tables)) {
    if (!tableExists.get(table)) continue;
    const { changes } = db
      .prepare(`DELETE FROM ${quote(table)} WHERE urn = ? AND timestampMillis >= ? AND timestampMillis <= ?`)
      .run(urn, from, to);
    if (changes > 0) bumpVersion.run(table);
    deleted += changes;
  }
  return deleted;
});

serve(db, (/** @type {{ op: 'write', rows: unknown[][] } | ({ op: 'deleteByUrn' } & DeleteByUrn)} */ request) =>
  whileWriting(contention, () => {
    if (request.op === 'deleteByUrn') return deleteByUrn.immediate(request);
    // Tables first, outside the transaction: DDL inside it would be undone with a failed batch, statements not.
    for (const index of new Set(request.rows.map((row) => /** @type {string} */ (row[0])))) insertInto(index);
    write.immediate(request.rows);
    return request.rows.length;
  }),
);
