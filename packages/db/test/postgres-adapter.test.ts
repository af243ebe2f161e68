import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { isDatabaseUnavailable, openPostgresDatabase, type SqlDatabase } from '../src/index';
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
    let terminated = () => {};
    const afterTermination = new Promise<void>((resolve) => (terminated = resolve));
    const cutOff = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (id) VALUES (?)', [++runs]);
      if (runs === 1) {
        cut();
        await afterTermination; // the connection is terminated meanwhile
      }
      await tx.run('INSERT INTO t (id) VALUES (?)', [100 + runs]);
    });
    await midway;
    await terminateConnections(db);
    terminated();
    await cutOff;
    expect(runs).toBe(2);
    expect(await db.all('SELECT id FROM t ORDER BY id')).toEqual([{ id: 2 }, { id: 102 }]);
    await terminateConnections(db); // idle connections ended: the next statement runs on a new one, however soon
    expect(await db.run('INSERT INTO t (id) VALUES (3)')).toEqual({ changes: 1 });
    expect(await db.get('SELECT count(*) AS n FROM t')).toEqual({ n: 3 });
  });

  it('fails at once, as unavailable, when the server cannot be reached; and within its timeout when no connection is free', async () => {
    const closed = new URL(testPostgresUrl());
    closed.port = String(Number(closed.port) === 1 ? 2 : 1); // nothing listens on port 1
    const unreachable = openPostgresDatabase({ url: closed.toString(), connectTimeoutMs: 500 });
    try {
      for (const attempt of [unreachable.get('SELECT 1'), unreachable.transaction((tx) => tx.run('SELECT 1'))]) {
        const error = await attempt.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(isDatabaseUnavailable(error)).toBe(true);
      }
    } finally {
      await unreachable.close();
    }

    const busy = openPostgresDatabase({ url: testPostgresUrl(), poolSize: 1, connectTimeoutMs: 200 });
    try {
      // The pool's one connection is opened first (on a busy machine opening it may itself outlast 200 ms, which
      // is the bound under test, not a failure of it): the transaction below then holds an open connection.
      for (let tries = 0; ; tries++) {
        const opened = await busy.get('SELECT 1').then(
          () => true,
          (e: unknown) => (isDatabaseUnavailable(e) && tries < 50 ? false : Promise.reject(e)),
        );
        if (opened) break;
      }
      let release = () => {};
      let entered = () => {};
      const inside = new Promise<void>((resolve) => (entered = resolve));
      const holding = busy.transaction(
        () =>
          new Promise<void>((resolve) => {
            release = resolve;
            entered();
          }),
      );
      await inside;
      // The held connection is released only after the wait ends: a wait without its timeout would hang this test.
      const waited = await busy.get('SELECT 1').then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isDatabaseUnavailable(waited)).toBe(true);
      release();
      await holding;
    } finally {
      await busy.close();
    }
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
  });

  it('runs transactions that hold different keys side by side, and those holding one key one after the other', async () => {
    const db = await smallPools.open();
    await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    // Different keys: each transaction waits inside until all three are in, which only side-by-side runs can reach
    // (whatever the machine's speed; serialized runs would never finish and the test would time out).
    let inside = 0;
    let allIn = () => {};
    const allInside = new Promise<void>((resolve) => (allIn = resolve));
    const meet = (key: string, id: number) =>
      db.transaction(
        async (tx) => {
          await tx.run('INSERT INTO t (id) VALUES (?)', [id]);
          if (++inside === 3) allIn();
          await allInside;
        },
        { lockKeys: [key] },
      );
    await Promise.all([meet('a', 1), meet('b', 2), meet('c', 3)]);
    const running = { now: 0, most: 0 };
    const hold = (key: string, id: number) =>
      db.transaction(
        async (tx) => {
          running.most = Math.max(running.most, ++running.now);
          await tx.run('INSERT INTO t (id) VALUES (?)', [id]);
          await new Promise((resolve) => setTimeout(resolve, 50));
          running.now--;
        },
        { lockKeys: [key] },
      );
    await Promise.all([hold('same', 4), hold('same', 5), hold('same', 6)]);
    expect(running.most).toBe(1); // the lock is taken before the work starts
    expect(await db.get('SELECT count(*) AS n FROM t')).toEqual({ n: 6 });
  });
});
