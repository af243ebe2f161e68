import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { SqlDatabase } from '../src/index';
import { postgresTestDatabases, testPostgresUrl } from '../src/testing';

// One connection per pool: what the connection has prepared is then what `pg_prepared_statements` shows.
const databases = postgresTestDatabases({ poolSize: 1 });
afterEach(() => databases.closeOpened());
afterAll(() => databases.dispose());

/** The statements the pool's connection holds prepared (a statement without parameters: never itself named). */
const prepared = async (db: SqlDatabase) =>
  (await db.all<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).map((r) => r.statement);

/** An operator's statement on its own connection (pg_terminate_backend, DDL another replica's migration runs). */
async function asAdmin(db: SqlDatabase, sql: string) {
  const { name } = (await db.get<{ name: string }>('SELECT current_database() AS name'))!;
  const url = new URL(testPostgresUrl());
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

const READ = 'SELECT v FROM t WHERE id = ?';

async function withTable(): Promise<SqlDatabase> {
  const db = await databases.open();
  await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL)');
  await db.run('INSERT INTO t (id, v) VALUES (?, ?), (?, ?)', [1, 10, 2, 20]);
  return db;
}

describe('PostgreSQL prepared statements', () => {
  it('prepares a statement with parameters from its second use on, once per connection; never one without', async () => {
    const db = await withTable();
    expect(await db.get(READ, [1])).toEqual({ v: 10 });
    expect(await prepared(db)).toEqual([]);
    expect(await db.get(READ, [2])).toEqual({ v: 20 });
    expect(await db.get(READ, [1])).toEqual({ v: 10 });
    expect(await prepared(db)).toEqual(['SELECT v FROM t WHERE id = $1']);
    // Several commands in one text, as the simple protocol allows: still unnamed, still allowed.
    for (let i = 0; i < 3; i++) await db.run('UPDATE t SET v = v + 1; UPDATE t SET v = v - 1');
    expect(await prepared(db)).toEqual(['SELECT v FROM t WHERE id = $1']);
  });

  it('prepares again by itself on a new connection, after every connection was terminated', async () => {
    const db = await withTable();
    await db.get(READ, [1]);
    await db.get(READ, [1]);
    await asAdmin(
      db,
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    expect(await db.get(READ, [2])).toEqual({ v: 20 });
    expect(await db.transaction((tx) => tx.get(READ, [1]))).toEqual({ v: 10 });
    expect(await prepared(db)).toEqual(['SELECT v FROM t WHERE id = $1']);
  });

  it('answers from the tables as they are after a DDL: a column added, the table dropped and created again', async () => {
    const db = await withTable();
    await db.get(READ, [1]);
    await db.get(READ, [1]);
    await asAdmin(db, 'ALTER TABLE t ADD COLUMN w TEXT');
    expect(await db.get(READ, [1])).toEqual({ v: 10 });
    await asAdmin(db, 'DROP TABLE t; CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER NOT NULL); INSERT INTO t VALUES (1, 11)');
    expect(await db.get(READ, [1])).toEqual({ v: 11 });
  });

  it('prepares afresh a statement whose result type a DDL changed: at once outside a transaction, after one failed transaction inside', async () => {
    const db = await withTable();
    await db.get(READ, [1]);
    await db.get(READ, [1]);
    await asAdmin(db, 'ALTER TABLE t ALTER COLUMN v TYPE TEXT');
    expect(await db.get(READ, [1])).toEqual({ v: '10' });
    await asAdmin(db, 'ALTER TABLE t ALTER COLUMN v TYPE BIGINT USING v::bigint');
    await expect(db.transaction((tx) => tx.get(READ, [1]))).rejects.toMatchObject({ code: '0A000' });
    expect(await db.transaction((tx) => tx.get(READ, [1]))).toEqual({ v: 10 });
  });

  it('sends every statement unnamed once the server proves not to hold what was prepared (DISCARD ALL, a pooler)', async () => {
    const db = await withTable();
    await db.get(READ, [1]);
    await db.get(READ, [1]);
    await db.run('DEALLOCATE ALL'); // on the pool's only connection, as a pooler in transaction mode would seem to
    expect(await db.get(READ, [2])).toEqual({ v: 20 });
    expect(await db.transaction((tx) => tx.get(READ, [1]))).toEqual({ v: 10 });
    expect(await db.get('SELECT v FROM t WHERE id = ? AND v > ?', [1, 0])).toEqual({ v: 10 });
    expect(await db.get('SELECT v FROM t WHERE id = ? AND v > ?', [1, 0])).toEqual({ v: 10 });
    expect(await prepared(db)).toEqual([]);
  });

  it('runs any number of distinct statements, naming a bounded number of them', async () => {
    const db = await withTable();
    for (let n = 1; n <= 300; n++) {
      const sql = `SELECT v FROM t WHERE id IN (${Array.from({ length: n }, () => '?').join(', ')}) ORDER BY id`;
      const ids = Array.from({ length: n }, (_, i) => i + 1);
      expect(await db.all(sql, ids)).toEqual(n === 1 ? [{ v: 10 }] : [{ v: 10 }, { v: 20 }]);
      expect(await db.all(sql, ids)).toHaveLength(n === 1 ? 1 : 2);
    }
    expect((await prepared(db)).length).toBe(256);
  });

  it('names by text: a failing statement leaves nothing behind, and a transaction rolled back keeps its statements', async () => {
    const db = await withTable();
    await expect(db.get('SELECT nope FROM t WHERE id = ?', [1])).rejects.toMatchObject({ code: '42703' });
    await expect(db.get('SELECT nope FROM t WHERE id = ?', [1])).rejects.toMatchObject({ code: '42703' });
    await expect(
      db.transaction(async (tx) => {
        await tx.get(READ, [1]);
        await tx.get(READ, [1]);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(await db.get(READ, [2])).toEqual({ v: 20 });
    expect(await prepared(db)).toEqual(['SELECT v FROM t WHERE id = $1']);
  });
});
