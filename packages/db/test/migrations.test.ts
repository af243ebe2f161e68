import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatabaseTooNewError, applyMigrations } from '../src/index';
import { openTemp, tempDbFile, tempDir } from './helpers';

/** Writes a drizzle-kit style migrations folder with the given migrations. */
function migrationsFolder(migrations: { when: number; sql: string }[]): string {
  const folder = tempDir('mds-migrations-');
  mkdirSync(join(folder, 'meta'));
  const entries = migrations.map((m, idx) => ({ idx, version: '6', when: m.when, tag: `000${idx}_m`, breakpoints: true }));
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify({ version: '7', dialect: 'sqlite', entries }));
  migrations.forEach((m, idx) => writeFileSync(join(folder, `000${idx}_m.sql`), m.sql));
  return folder;
}

describe('openDatabase', () => {
  it('opens a file in WAL mode with durable commits', () => {
    const db = openTemp();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
  });
});

describe('applyMigrations', () => {
  const first = { when: 1_000, sql: 'CREATE TABLE t (id integer primary key);' };
  const second = { when: 2_000, sql: 'ALTER TABLE t ADD name text;' };

  it('applies migrations once and is safe to run on every start', () => {
    const file = tempDbFile();
    const folder = migrationsFolder([first, second]);
    for (let start = 0; start < 3; start++) {
      const db = openTemp(file);
      applyMigrations(db, { folder, owner: 'demo' });
      db.close();
    }
    const db = openTemp(file);
    expect(db.prepare('SELECT count(*) AS n FROM __migrations_demo').get()).toEqual({ n: 2 });
    db.prepare('INSERT INTO t (name) VALUES (?)').run('x');
  });

  it('keeps each owner in its own migrations table', () => {
    const db = openTemp();
    applyMigrations(db, { folder: migrationsFolder([first]), owner: 'a' });
    applyMigrations(db, { folder: migrationsFolder([{ when: 500, sql: 'CREATE TABLE u (id integer);' }]), owner: 'b' });
    expect(db.prepare(`SELECT name FROM sqlite_master WHERE name IN ('t', 'u') ORDER BY name`).all()).toEqual([{ name: 't' }, { name: 'u' }]);
  });

  it('refuses a database written by a newer version', () => {
    const file = tempDbFile();
    applyMigrations(openTemp(file), { folder: migrationsFolder([first, second]), owner: 'demo' });
    const older = migrationsFolder([first]);
    expect(() => applyMigrations(openTemp(file), { folder: older, owner: 'demo' })).toThrow(DatabaseTooNewError);
    expect(() => applyMigrations(openTemp(file), { folder: older, owner: 'demo' })).toThrow(/written by a newer mds/);
  });
});
