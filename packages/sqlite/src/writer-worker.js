// @ts-check
/**
 * The writer thread of one SQLite file (see writer-thread.ts): runs each batch of statements in one transaction,
 * each statement in its own savepoint, and answers only after the commit, i.e. after its fsync. The event loop
 * that sent the batch never blocks on the disk meanwhile.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { applyStatement, configureConnection, statementCache } from './connection.js';

/** @type {{ file: string }} */
const { file } = workerData;
const db = new Database(file);
configureConnection(db);
const prepare = statementCache(db);

/** @param {unknown} error */
const describe = (error) => {
  const { message, code } = /** @type {{ message?: string, code?: string }} */ (error ?? {});
  return { message: message ?? String(error), code };
};

// A better-sqlite3 transaction called inside another becomes a SAVEPOINT: a failing statement is undone alone.
const inSavepoint = db.transaction((/** @type {import('./connection.js').WriteStatement} */ write) => applyStatement(prepare, write));
const runBatch = db.transaction((/** @type {import('./connection.js').WriteStatement[]} */ writes) =>
  writes.map((write) => {
    try {
      return { outcome: inSavepoint(write) };
    } catch (error) {
      return { error: describe(error) };
    }
  }),
);

parentPort?.on('message', (/** @type {'close' | { writes: import('./connection.js').WriteStatement[] }} */ message) => {
  if (message === 'close') {
    db.close();
    parentPort?.close();
    return;
  }
  try {
    parentPort?.postMessage({ results: runBatch.immediate(message.writes) });
  } catch (error) {
    // The commit itself failed (disk full, I/O error): none of the batch happened.
    parentPort?.postMessage({ error: describe(error) });
  }
});
