import { describe, expect, it } from 'vitest';
import { atomic, createGroupCommit } from '../src/index';
import { openTemp, tempDbFile } from './helpers';

/** A table on a fresh file, the group commit over it, and a second connection that sees only what committed. */
const fresh = () => {
  const file = tempDbFile();
  const db = openTemp(file);
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER)');
  const other = openTemp(file);
  const count = (conn: typeof db) => (conn.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
  return { db, other, count, commits: createGroupCommit(db), insert: db.prepare('INSERT INTO t (id, n) VALUES (?, ?)') };
};
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('createGroupCommit', () => {
  it('commits the writes of one turn in one transaction and answers each', async () => {
    const { db, other, count, commits, insert } = fresh();
    const writes = Array.from({ length: 49 }, (_, i) => commits.run(() => insert.run(`id-${i}`, i).changes));
    // The last write of the turn sees the 49 before it, while no other connection sees any: one transaction.
    const seen = commits.run(() => [count(db), count(other)]);
    expect(await Promise.all(writes)).toEqual(Array(49).fill(1));
    expect(await seen).toEqual([49, 0]);
    expect(count(other)).toBe(49);
  });

  it('waits while writes keep arriving, turn after turn, and commits them together', async () => {
    const { db, other, count, commits, insert } = fresh();
    const first = commits.run(() => insert.run('a', 1));
    await nextTurn();
    const second = commits.run(() => insert.run('b', 2));
    await nextTurn();
    const seen = commits.run(() => [count(db), count(other)]);
    await Promise.all([first, second]);
    expect(await seen).toEqual([2, 0]);
  });

  it('commits a batch of 256 writes at once, without waiting for more', async () => {
    const { other, count, commits, insert } = fresh();
    const full = Array.from({ length: 256 }, (_, i) => commits.run(() => insert.run(`id-${i}`, i)));
    await nextTurn();
    const later = commits.run(() => count(other));
    await Promise.all(full);
    expect(await later).toBe(256);
  });

  it('rolls back and rejects only the write that failed', async () => {
    const { db, commits, insert } = fresh();
    const outcomes = await Promise.allSettled([
      commits.run(() => insert.run('a', 1)),
      commits.run(() => {
        insert.run('b', 2);
        insert.run('a', 3); // duplicate: this whole write must vanish, 'b' included
      }),
      commits.run(() => insert.run('c', 4)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.code).toBe('SQLITE_CONSTRAINT_PRIMARYKEY');
    expect(db.prepare('SELECT id FROM t ORDER BY id').all()).toEqual([{ id: 'a' }, { id: 'c' }]);
  });

  it('rolls back and rejects a write that fails alone in its turn', async () => {
    const { db, commits, insert } = fresh();
    await commits.run(() => insert.run('a', 1));
    const failing = commits.run(() => {
      insert.run('b', 2);
      insert.run('a', 3);
    });
    await expect(failing).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(db.prepare('SELECT id FROM t ORDER BY id').all()).toEqual([{ id: 'a' }]);
  });

  it('rejects a refusal alone, keeping the batch without running any write twice', async () => {
    const { db, other, count } = fresh();
    const commits = createGroupCommit(db, { isRefusal: (error) => error instanceof RangeError });
    const insert = db.prepare('INSERT INTO t (id, n) VALUES (?, ?)');
    const runs = [0, 0, 0];
    const outcomes = await Promise.allSettled([
      commits.run(() => (runs[0]!++, insert.run('a', 1))),
      commits.run(() => {
        runs[1]!++;
        throw new RangeError('refused before writing');
      }),
      commits.run(() => (runs[2]!++, insert.run('c', 3))),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(RangeError);
    expect(runs).toEqual([1, 1, 1]);
    expect(count(other)).toBe(2);
  });

  it('rejects the whole batch, running no write twice, when the commit fails rather than a write', async () => {
    const { db, other, commits } = fresh();
    db.exec(`CREATE TABLE parent (id TEXT PRIMARY KEY);
      CREATE TABLE child (id TEXT PRIMARY KEY, parent TEXT REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`);
    const insertChild = db.prepare('INSERT INTO child (id, parent) VALUES (?, ?)');
    const runs = [0, 0, 0];
    // Every write succeeds; the second leaves a dangling reference, which only COMMIT checks.
    const outcomes = await Promise.allSettled(
      ['a', 'missing', 'c'].map((parent, i) =>
        commits.run(() => (runs[i]!++, insertChild.run(`child-${i}`, parent === 'missing' ? parent : null))),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const outcome of outcomes) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
    }
    expect(runs).toEqual([1, 1, 1]);
    expect(other.prepare('SELECT count(*) AS n FROM child').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM child').get()).toEqual({ n: 0 });
  });

  it('acknowledges only what another connection can already read', async () => {
    const { other, commits, insert } = fresh();
    await commits.run(() => insert.run('seen', 1));
    expect(other.prepare("SELECT n FROM t WHERE id = 'seen'").get()).toEqual({ n: 1 });
  });

  it('runs later writes in a later group', async () => {
    const { db, other, count, commits, insert } = fresh();
    await commits.run(() => insert.run('first', 1));
    // The first group has committed, so the second runs in a transaction of its own.
    expect(await commits.run(() => (insert.run('second', 2), [count(db), count(other)]))).toEqual([2, 1]);
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 2 });
  });
});

describe('atomic', () => {
  const twoRows = (db: ReturnType<typeof fresh>['db'], insert: ReturnType<typeof fresh>['insert']) =>
    atomic(db, (first: string, second: string) => {
      insert.run(first, 1);
      insert.run(second, 2);
    });

  it('runs alone in a transaction of its own: a failure halfway leaves nothing', () => {
    const { db, insert } = fresh();
    insert.run('taken', 0);
    const write = twoRows(db, insert);
    expect(() => write('new', 'taken')).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }));
    expect(db.prepare('SELECT id FROM t').all()).toEqual([{ id: 'taken' }]);
    write('a', 'b');
    expect(db.prepare('SELECT id FROM t ORDER BY id').all()).toEqual([{ id: 'a' }, { id: 'b' }, { id: 'taken' }]);
  });

  it('joins a transaction already open, and is rolled back with it', () => {
    const { db, insert } = fresh();
    const write = twoRows(db, insert);
    const outer = db.transaction(() => {
      write('a', 'b');
      throw new Error('the caller changed its mind');
    });
    expect(() => outer()).toThrow('the caller changed its mind');
    expect(db.prepare('SELECT count(*) AS n FROM t').get()).toEqual({ n: 0 });
  });

  it('opens no savepoint when it joins: a failure halfway is left to the open transaction', () => {
    const { db, insert } = fresh();
    const write = twoRows(db, insert);
    const seen = db.transaction(() => {
      expect(() => write('c', 'c')).toThrow(expect.objectContaining({ code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }));
      return db.prepare('SELECT id FROM t').all();
    })();
    // Its first row is still there: a savepoint would have undone it (and, for FTS5, flushed a segment).
    expect(seen).toEqual([{ id: 'c' }]);
  });
});
