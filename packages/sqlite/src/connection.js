// @ts-check
// Plain JavaScript: shared by the main thread (through index.ts) and by writer threads, which load it untranspiled.

/**
 * The settings of every connection, on the main thread and on writer threads alike. WAL lets readers go on while
 * one writer writes; `FULL` (the default) fsyncs the WAL at every commit, so an acknowledged write survives power
 * loss, not only a crash.
 * @param {import('better-sqlite3').Database} db
 * @param {'FULL' | 'NORMAL'} [synchronous]
 */
export function configureConnection(db, synchronous = 'FULL') {
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
}

/**
 * @typedef {{ sql: string, params: unknown[] | Record<string, unknown> }} WriteStatement
 * @typedef {{ row?: unknown, changes?: number }} WriteOutcome
 */

/**
 * Prepares each SQL text once per connection.
 * @param {import('better-sqlite3').Database} db
 * @returns {(sql: string) => import('better-sqlite3').Statement}
 */
export function statementCache(db) {
  /** @type {Map<string, import('better-sqlite3').Statement>} */
  const prepared = new Map();
  return (sql) => {
    let statement = prepared.get(sql);
    if (!statement) prepared.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
}

/**
 * Runs one write: a statement that returns rows (`RETURNING`) answers its first row, any other its change count.
 * @param {(sql: string) => import('better-sqlite3').Statement} prepare
 * @param {WriteStatement} write
 * @returns {WriteOutcome}
 */
export function applyStatement(prepare, { sql, params }) {
  const statement = prepare(sql);
  const args = Array.isArray(params) ? params : [params];
  return statement.reader ? { row: statement.get(...args) } : { changes: statement.run(...args).changes };
}
