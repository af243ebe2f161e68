import { mkdtempSync, rmSync } from 'node:fs';
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
