import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sqliteTestDatabases } from '../src/testing';
import { describeSqlDatabaseContract } from './port-contract';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);
const { open } = databases;

describeSqlDatabaseContract('SQLite', databases);

describe('SQLite group commit', () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  /** A database with a table, and a transaction that inserts a row. */
  const fresh = async () => {
    const db = await open();
    await db.run('CREATE TABLE t (id TEXT PRIMARY KEY)');
    const insert = (id: string) => db.transaction((tx) => tx.run('INSERT INTO t (id) VALUES (?)', [id]));
    /** Rows as the transaction sees them, and as a statement outside it does (committed rows only). */
    const counts = () =>
      db.transaction(async (tx) => {
        const count = async (on: typeof tx) => (await on.get<{ n: number }>('SELECT count(*) AS n FROM t'))!.n;
        return [await count(tx), await count(db)];
      });
    return { db, insert, counts };
  };

  it('commits the transactions of one turn together', async () => {
    const { insert, counts } = await fresh();
    const inserts = ['a', 'b', 'c'].map(insert);
    expect(await counts()).toEqual([3, 0]);
    await Promise.all(inserts);
  });

  it('waits while transactions keep arriving, turn after turn, and commits them together', async () => {
    // Requests are read over several turns: each turn's transactions joining the batch is what lets 32 concurrent
    // single-aspect ingestions share one fsync instead of committing in halves.
    const { insert, counts } = await fresh();
    const first = insert('a');
    await nextTurn();
    const second = insert('b');
    await nextTurn();
    expect(await counts()).toEqual([2, 0]);
    await Promise.all([first, second]);
  });

  it('runs a transaction that comes after the batch committed in a batch of its own', async () => {
    const { insert, counts } = await fresh();
    await insert('a');
    expect(await counts()).toEqual([1, 1]);
  });
});

describe('SQLite commit stamp', () => {
  it('moves when another connection to the file (another process) commits, so caches over it are never stale', async () => {
    const mine = await open();
    const theirs = await databases.openAgain(mine);
    await mine.run('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    const before = mine.commitStamp!();
    await theirs.run('INSERT INTO t (id) VALUES (1)');
    expect(mine.commitStamp!()).not.toBe(before);
  });
});
