import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../src/index';

const dirs: string[] = [];
const dbs: SqliteDatabase[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) if (db.open) db.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A temporary directory, removed after the test. */
export function tempDir(prefix = 'mds-sqlite-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/** The path of a database file in a fresh temporary directory. */
export const tempDbFile = () => join(tempDir(), 'test.db');

/** `openDatabase(file)`, closed after the test. */
export function openTemp(file = tempDbFile()): SqliteDatabase {
  const db = openDatabase(file);
  dbs.push(db);
  return db;
}

/** A drizzle-kit style migrations folder with the given migrations. */
export function migrationsFolder(migrations: { when: number; sql: string }[]): string {
  const folder = tempDir('mds-migrations-');
  mkdirSync(join(folder, 'meta'));
  const entries = migrations.map((m, idx) => ({ idx, version: '6', when: m.when, tag: `000${idx}_m`, breakpoints: true }));
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify({ version: '7', dialect: 'sqlite', entries }));
  migrations.forEach((m, idx) => writeFileSync(join(folder, `000${idx}_m.sql`), m.sql));
  return folder;
}
