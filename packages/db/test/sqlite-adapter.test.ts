import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CommitSyncError, openSqliteDatabase, type SqlDatabase, type SqliteAdapterOptions } from '../src/index';
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

describe('SQLite durability off the event loop', () => {
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
  /** A sync of the WAL file that completes (or fails) only when the test says so. */
  const heldSync = () => {
    const calls: { file: string; finish(error?: Error): void }[] = [];
    const syncFile = (file: string) =>
      new Promise<void>((resolve, reject) => calls.push({ file, finish: (error) => (error ? reject(error) : resolve()) }));
    /** The n-th sync (from 1), once it has begun. */
    const call = async (n: number) => {
      for (let turn = 0; calls.length < n; turn++) {
        if (turn > 1000) throw new Error(`sync ${n} never began (${calls.length} began)`);
        await nextTurn();
      }
      return calls[n - 1]!;
    };
    return { syncFile, calls, call };
  };
  /** 'pending', 'resolved' or 'rejected', after the event loop has had a few turns to settle it. */
  const state = async (promise: Promise<unknown>) => {
    let seen = 'pending';
    promise.then(
      () => (seen = 'resolved'),
      () => (seen = 'rejected'),
    );
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    return seen;
  };
  const dirs: string[] = [];
  const opened: SqlDatabase[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const fileInTemp = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-test-walsync-'));
    dirs.push(dir);
    return join(dir, 'test.db');
  };
  const openWith = (file: string, options: SqliteAdapterOptions) => {
    const db = openSqliteDatabase(file, options);
    opened.push(db);
    return db;
  };
  /** A database with a table t, its creation synced. */
  const withTable = async () => {
    const sync = heldSync();
    const file = fileInTemp();
    const db = openWith(file, { syncFile: sync.syncFile });
    const created = db.run('CREATE TABLE t (id TEXT PRIMARY KEY)');
    (await sync.call(1)).finish();
    await created;
    const insert = (id: string) => db.transaction((tx) => tx.run('INSERT INTO t (id) VALUES (?)', [id]));
    const count = async () => (await db.get<{ n: number }>('SELECT count(*) AS n FROM t'))!.n;
    return { db, file, sync, insert, count };
  };

  it('resolves a transaction only once a sync of the WAL file begun after its commit has completed', async () => {
    const { file, sync, insert } = await withTable();
    expect(sync.calls[0]!.file).toBe(`${file}-wal`);
    const inserted = insert('a');
    const second = await sync.call(2);
    expect(await state(inserted)).toBe('pending');
    second.finish();
    expect(await state(inserted)).toBe('resolved');
  });

  it('lets the next batch commit while a sync runs, and answers it after a sync of its own', async () => {
    const { sync, insert, db } = await withTable();
    const first = insert('a');
    const firstSync = await sync.call(2);
    const second = [insert('b'), insert('c')];
    // The second batch commits meanwhile (its rows are there for the writer), but no second sync runs alongside.
    const seenByWriter = db.transaction(async (tx) => (await tx.get<{ n: number }>('SELECT count(*) AS n FROM t'))!.n);
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    expect(sync.calls).toHaveLength(2);
    firstSync.finish();
    expect(await state(first)).toBe('resolved');
    expect(await state(Promise.all(second))).toBe('pending');
    (await sync.call(3)).finish();
    await Promise.all(second);
    expect(await seenByWriter).toBe(3);
  });

  it('answers a read only once every commit it could see is durable; a batch ready to commit waits for it', async () => {
    const { sync, insert, count } = await withTable();
    const first = insert('a');
    const firstSync = await sync.call(2);
    const read = count();
    const second = insert('b');
    expect(await state(read)).toBe('pending');
    firstSync.finish();
    // The read sees the first row, durable now, and not the second, which committed only after it was answered.
    expect(await read).toBe(1);
    await first;
    (await sync.call(3)).finish();
    await second;
    expect(await count()).toBe(2);
  });

  it('rejects the batch of a failed sync and refuses every later transaction: what it covered may not be on disk', async () => {
    const { sync, insert, count } = await withTable();
    const inserted = insert('a');
    (await sync.call(2)).finish(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
    await expect(inserted).rejects.toThrow(CommitSyncError);
    await expect(inserted).rejects.toThrow(/could not be synced to disk \(EIO: i\/o error, fdatasync\).*until the server restarts/);
    // The row was committed and may be read, though its writer was told it failed (as after a crash during COMMIT).
    expect(await count()).toBe(1);
    await expect(insert('b')).rejects.toThrow(CommitSyncError);
    expect(sync.calls).toHaveLength(2);
  });

  it('keeps every acknowledged commit across a reopen, with the real fdatasync', async () => {
    const file = fileInTemp();
    const db = openWith(file, {});
    await db.run('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    for (let batch = 0; batch < 5; batch++)
      await Promise.all(Array.from({ length: 20 }, (_, i) => db.run('INSERT INTO t (id) VALUES (?)', [batch * 20 + i])));
    await db.close();
    opened.splice(opened.indexOf(db), 1);
    const again = openWith(file, {});
    expect((await again.get<{ n: number }>('SELECT count(*) AS n FROM t'))!.n).toBe(100);
  });

  it('leaves the sync to SQLite inside COMMIT when asked to (commitSync inline)', async () => {
    const sync = heldSync();
    const file = fileInTemp();
    const db = openWith(file, { commitSync: 'inline', syncFile: sync.syncFile });
    await db.run('CREATE TABLE t (id TEXT PRIMARY KEY)');
    await db.run('INSERT INTO t (id) VALUES (?)', ['a']);
    expect(sync.calls).toHaveLength(0);
  });
});
