import Database from 'better-sqlite3';
import { join } from 'node:path';

/** The two databases of a data directory. */
export const databasesOf = (dataDir: string) => [join(dataDir, 'mds.db'), join(dataDir, 'timeseries.db')];

/**
 * Opens a database read-only once its server is dead and runs `read` on it. Read-only still replays the WAL
 * a killed process left behind, so this sees exactly what the next start will see.
 */
export function readDatabase<T>(file: string, read: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** `PRAGMA integrity_check` of a database: 'ok', or SQLite's list of problems. */
export const integrityOf = (file: string) =>
  readDatabase(file, (db) => (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check).join('\n'));

/** Names of tables and triggers, for "nothing left behind" checks. */
export const schemaObjects = (file: string) =>
  readDatabase(
    file,
    (db) =>
      db.prepare(`SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'trigger') ORDER BY name`).all() as {
        type: string;
        name: string;
      }[],
  );
