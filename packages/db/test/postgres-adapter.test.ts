import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { SqlDatabase } from '../src/index';
import { postgresTestDatabases, testPostgresUrl } from '../src/testing';
import { describeSqlDatabaseContract } from './port-contract';

const databases = postgresTestDatabases();
const smallPools = postgresTestDatabases({ poolSize: 4 });
afterEach(async () => {
  await databases.closeOpened();
  await smallPools.closeOpened();
});
afterAll(async () => {
  await databases.dispose();
  await smallPools.dispose();
});
const { open } = databases;

describeSqlDatabaseContract('PostgreSQL', databases);

describe('PostgreSQL adapter', () => {
  it('rejects a transaction whose work caught a failed statement, committing nothing of it', async () => {
    const db = await open();
    await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    await db.run('INSERT INTO t (id) VALUES (1)');
    const caught = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id) VALUES (2)');
      await tx.run('INSERT INTO t (id) VALUES (1)').catch(() => 'ignored');
    });
    await expect(caught).rejects.toMatchObject({ code: '23505' });
    expect(await db.all('SELECT id FROM t')).toEqual([{ id: 1 }]);
  });

  it('takes ? inside string literals, quoted names and comments as text, not as placeholders', async () => {
    const db = await open();
    const row = await db.get(`SELECT 'why?' AS "what?", ? AS n -- really?\n, /* or ? */ ? AS m`, [1, 2]);
    expect(row).toEqual({ 'what?': 'why?', n: '1', m: '2' });
  });

  it('answers bigint results (counts, sums) as numbers, as SQLite does', async () => {
    const db = await open();
    expect(await db.get('SELECT count(*) AS n, CAST(? AS bigint) AS big', [1_700_000_000_000])).toEqual({ n: 1, big: 1_700_000_000_000 });
  });

  it('offers no commit stamp: another replica’s commit cannot be seen cheaply, so nothing may be cached', async () => {
    expect((await open()).commitStamp).toBeUndefined();
  });

  it('runs transactions concurrently on its pool, each on a connection of its own', async () => {
    const db = await smallPools.open();
    await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    // Four transactions that each wait for all four to have started: only possible if they run side by side.
    let started = 0;
    let allIn = () => {};
    const allStarted = new Promise<void>((resolve) => (allIn = resolve));
    await Promise.all(
      [1, 2, 3, 4].map((id) =>
        db.transaction(async (tx) => {
          await tx.run('INSERT INTO t (id) VALUES (?)', [id]);
          if (++started === 4) allIn();
          await allStarted;
        }),
      ),
    );
    expect(await db.get('SELECT count(*) AS n FROM t')).toEqual({ n: 4 });
  });

  /** Ends every connection to `db`'s database from outside, as pg_terminate_backend by an operator or a restart does. */
  async function terminateConnections(db: SqlDatabase) {
    const { name } = (await db.get<{ name: string }>('SELECT current_database() AS name'))!;
    const admin = new pg.Client({ connectionString: testPostgresUrl() });
    await admin.connect();
    try {
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
    } finally {
      await admin.end();
    }
  }

  it('recovers by itself when every connection is terminated, and runs again a transaction cut before its commit', async () => {
    const db = await open();
    await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    let runs = 0;
    let cut = () => {};
    const midway = new Promise<void>((resolve) => (cut = resolve));
    const cutOff = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id) VALUES (?)', [++runs]);
      if (runs === 1) {
        cut();
        await new Promise((resolve) => setTimeout(resolve, 200)); // the connection is terminated meanwhile
      }
      await tx.run('INSERT INTO t (id) VALUES (?)', [100 + runs]);
    });
    await midway;
    await terminateConnections(db);
    await cutOff;
    expect(runs).toBe(2);
    expect(await db.all('SELECT id FROM t ORDER BY id')).toEqual([{ id: 2 }, { id: 102 }]);
    await terminateConnections(db);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the pool hears of its idle connections' end
    expect(await db.run('INSERT INTO t (id) VALUES (3)')).toEqual({ changes: 1 });
    expect(await db.get('SELECT count(*) AS n FROM t')).toEqual({ n: 3 });
  });
});
