import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

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

export class DatabaseTooNewError extends Error {
  constructor(file: string, owner: string) {
    super(
      `${file} holds ${owner} migrations this version of mds does not know: it was written by a newer mds. ` +
        'Upgrade mds, or point DATA_DIR at another directory.',
    );
    this.name = 'DatabaseTooNewError';
  }
}

interface Journal {
  entries: { when: number; tag: string }[];
}

/**
 * Applies one package's drizzle-kit migrations (idempotent, so safe on every start). Each package keeps its own
 * migrations table, so packages sharing a file never see each other's history. A database that has migrations
 * newer than the package knows is refused rather than silently run against the wrong schema.
 */
export function applyMigrations(db: SqliteDatabase, options: { folder: string; owner: string }): void {
  const table = `__migrations_${options.owner}`;
  const journal = JSON.parse(readFileSync(join(options.folder, 'meta/_journal.json'), 'utf8')) as Journal;
  const newestKnown = Math.max(0, ...journal.entries.map((e) => e.when));
  const exists = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table);
  if (exists) {
    const applied = db.prepare(`SELECT max(created_at) AS newest FROM "${table}"`).get() as { newest: number | null };
    if ((applied.newest ?? 0) > newestKnown) throw new DatabaseTooNewError(db.name, options.owner);
  }
  migrate(drizzle(db), { migrationsFolder: options.folder, migrationsTable: table });
}
