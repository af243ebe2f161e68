import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { postgresTestDatabases } from '../src/testing';
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
});
