import { describe, expect, it } from 'vitest';
import { commitStamp } from '../src/commit-watch';
import { createCommitCache } from '../src/index';
import { openTemp, tempDbFile } from './helpers';

const fresh = (journal: 'wal' | 'delete' = 'wal') => {
  const file = tempDbFile();
  const db = openTemp(file);
  // WAL files are watched through the wal-index header; other journal modes through data_version and total_changes().
  if (journal === 'delete') db.pragma('journal_mode = DELETE');
  db.exec(`CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER); INSERT INTO t VALUES ('a', 1)`);
  const select = db.prepare<[string], { n: number }>('SELECT n FROM t WHERE id = ?');
  // As the SQLite adapter builds it: bypassed inside a transaction, whose rows may still be rolled back.
  const cache = createCommitCache<string, number | undefined>(commitStamp(db), { maxEntries: 100, bypass: () => db.inTransaction });
  let loads = 0;
  const read = (id: string) => cache.get(id, () => (loads++, select.get(id)?.n));
  return { file, db, cache, read, loads: () => loads };
};

describe('createCommitCache over a commit stamp', () => {
  it('answers repeated reads from memory, absent rows included', () => {
    const { read, loads } = fresh();
    expect([read('a'), read('a'), read('zz'), read('zz')]).toEqual([1, 1, undefined, undefined]);
    expect(loads()).toBe(2);
  });

  it.each(['wal', 'delete'] as const)("sees another connection's commit on the very next read (journal %s)", (journal) => {
    const { file, read } = fresh(journal);
    expect(read('a')).toBe(1);
    const other = openTemp(file);
    if (journal === 'delete') other.pragma('journal_mode = DELETE');
    other.prepare(`UPDATE t SET n = 2 WHERE id = 'a'`).run();
    expect(read('a')).toBe(2);
    other.prepare(`DELETE FROM t WHERE id = 'a'`).run();
    expect(read('a')).toBeUndefined();
  });

  it.each(['wal', 'delete'] as const)("sees its own connection's writes on the very next read (journal %s)", (journal) => {
    const { db, read } = fresh(journal);
    expect(read('a')).toBe(1);
    db.prepare(`UPDATE t SET n = 3 WHERE id = 'a'`).run();
    expect(read('a')).toBe(3);
  });

  it('keeps answering from memory while nothing commits, WAL checkpoints included', () => {
    const { db, read, loads } = fresh();
    read('a');
    db.pragma('wal_checkpoint(PASSIVE)');
    read('a');
    expect(loads()).toBe(1);
  });

  it('never caches inside a transaction, whose rows may be rolled back', () => {
    const { db, read } = fresh();
    expect(() =>
      db.transaction(() => {
        db.prepare(`INSERT INTO t VALUES ('b', 7)`).run();
        expect(read('b')).toBe(7);
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    expect(read('b')).toBeUndefined();
  });

  it('stays within its entry limit', () => {
    const { read, loads } = fresh();
    for (let i = 0; i < 250; i++) read(`k${i}`);
    expect(loads()).toBe(250);
    read('k249'); // still cached: the cache emptied at 200 and refilled from there
    expect(loads()).toBe(250);
    read('k0');
    expect(loads()).toBe(251);
  });
});
