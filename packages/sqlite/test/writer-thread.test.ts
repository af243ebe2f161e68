import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWriterThread, openDatabase, type WriterThread } from '../src/index';

const threads: WriterThread[] = [];
afterEach(async () => {
  await Promise.all(threads.splice(0).map((t) => t.close()));
});

const fresh = () => {
  const file = join(mkdtempSync(join(tmpdir(), 'mds-writer-')), 'w.db');
  const db = openDatabase(file);
  db.exec('CREATE TABLE t (id TEXT PRIMARY KEY, n INTEGER)');
  const writer = createWriterThread(file);
  threads.push(writer);
  const insert = (id: string, n: number) => writer.run({ sql: 'INSERT INTO t (id, n) VALUES (?, ?)', params: [id, n] });
  // Answers how many rows the write's own transaction sees, counting itself.
  const insertCounting = (id: string) =>
    writer.run({ sql: 'INSERT INTO t (id, n) VALUES (@id, (SELECT count(*) FROM t)) RETURNING n + 1 AS seen', params: { id } });
  const ids = () => db.prepare('SELECT id FROM t ORDER BY id').pluck().all();
  return { file, db, writer, insert, insertCounting, ids };
};

describe('createWriterThread', () => {
  it('commits the writes of one turn together, and acknowledges none before all are readable', async () => {
    const { insertCounting, ids } = fresh();
    const writes = Array.from({ length: 50 }, (_, i) => insertCounting(`id-${String(i).padStart(2, '0')}`));
    const first = await writes[0];
    // Acknowledged, so committed: and committed with the 49 others, which share its transaction.
    expect(ids()).toHaveLength(50);
    expect(first).toEqual({ row: { seen: 1 } });
    expect((await Promise.all(writes)).map((o) => (o.row as { seen: number }).seen)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
  });

  it('answers change counts and RETURNING rows', async () => {
    const { writer, insert } = fresh();
    expect(await insert('a', 1)).toEqual({ changes: 1 });
    expect(await writer.run({ sql: "UPDATE t SET n = 2 WHERE id = 'zz'", params: [] })).toEqual({ changes: 0 });
    expect(await writer.run({ sql: 'UPDATE t SET n = ? WHERE id = ? RETURNING id, n', params: [5, 'a'] })).toEqual({ row: { id: 'a', n: 5 } });
    expect(await writer.run({ sql: "DELETE FROM t WHERE id = 'zz' RETURNING id", params: [] })).toEqual({ row: undefined });
  });

  it("rolls back and rejects only the write that failed, with SQLite's code", async () => {
    const { insert, ids } = fresh();
    const outcomes = await Promise.allSettled([insert('a', 1), insert('a', 2), insert('c', 3)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ name: 'WriteError', code: 'SQLITE_CONSTRAINT_PRIMARYKEY' });
    expect(ids()).toEqual(['a', 'c']);
  });

  it('batches the writes queued while a commit is under way into the next transaction', async () => {
    const { insertCounting } = fresh();
    const first = insertCounting('first');
    await new Promise((resolve) => setImmediate(resolve)); // the first batch is now on the thread
    const later = [insertCounting('l1'), insertCounting('l2'), insertCounting('l3')];
    expect(await first).toEqual({ row: { seen: 1 } });
    expect((await Promise.all(later)).map((o) => (o.row as { seen: number }).seen)).toEqual([2, 3, 4]);
  });

  it('keeps working after a failed write, and commits what was queued before close', async () => {
    const { writer, insert, ids } = fresh();
    await expect(writer.run({ sql: 'INSERT INTO missing VALUES (1)', params: [] })).rejects.toMatchObject({ code: 'SQLITE_ERROR' });
    const queued = [insert('x', 1), insert('y', 2)];
    await writer.close();
    expect(await Promise.all(queued)).toEqual([{ changes: 1 }, { changes: 1 }]);
    expect(ids()).toEqual(['x', 'y']);
  });
});
