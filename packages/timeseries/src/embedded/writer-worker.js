// @ts-check
/**
 * Writes ingested documents on its own connection, so the event loop never waits for SQLite's write lock (a
 * truncation holds it for one batch at a time) nor spends time inserting. One batch = one transaction.
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

serve(db, (/** @type {{ op: 'write', rows: unknown[][] }} */ request) =>
  whileWriting(contention, () => {
    // Tables first, outside the transaction: DDL inside it would be undone with a failed batch, statements not.
    for (const index of new Set(request.rows.map((row) => /** @type {string} */ (row[0])))) insertInto(index);
    write.immediate(request.rows);
    return request.rows.length;
  }),
);
