import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseTooNewError, migrationsTable, newestKnownMigration } from './migrations';

export { DatabaseTooNewError };

export type SqliteDatabase = Database.Database;

export interface OpenOptions {
  /** `FULL` (default) fsyncs the WAL at every commit: an acknowledged write survives power loss, not only a crash. */
  synchronous?: 'FULL' | 'NORMAL';
}

/** Opens (creating if needed) a SQLite file in WAL mode, so readers never wait for the writer. */
export function openDatabase(file: string, options: OpenOptions = {}): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * Applies one package's drizzle-kit migrations (idempotent, so safe on every start). Each package keeps its own
 * migrations table, so packages sharing a file never see each other's history. A database that has migrations
 * newer than the package knows is refused rather than silently run against the wrong schema.
 */
export function applyMigrations(db: SqliteDatabase, options: { folder: string; owner: string }): void {
  const table = migrationsTable(options.owner);
  const newestKnown = newestKnownMigration(options.folder);
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table);
  if (exists) {
    const applied = db.prepare(`SELECT max(created_at) AS newest FROM "${table}"`).get() as { newest: number | null };
    if ((applied.newest ?? 0) > newestKnown) throw new DatabaseTooNewError(db.name, options.owner);
  }
  migrate(drizzle(db), { migrationsFolder: options.folder, migrationsTable: table });
}
