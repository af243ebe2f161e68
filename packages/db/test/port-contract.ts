import { describe, expect, it } from 'vitest';
import type { SqlDatabase } from '../src/index';

/**
 * What every adapter of the storage port promises. `open` gives a fresh, empty database; the suite creates its
 * own table.
 */
export function describeSqlDatabaseContract(name: string, open: () => Promise<SqlDatabase>) {
  describe(`storage port contract: ${name}`, () => {
    const withTable = async () => {
      const db = await open();
      await db.run('CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE, flag BOOLEAN)');
      return db;
    };

    it('runs statements with ? placeholders and reads rows back', async () => {
      const db = await withTable();
      expect(await db.run('INSERT INTO items (id, label, flag) VALUES (?, ?, ?)', [1, 'a', true])).toEqual({ changes: 1 });
      expect(await db.get('SELECT id, label FROM items WHERE id = ?', [1])).toEqual({ id: 1, label: 'a' });
      expect(await db.all('SELECT label FROM items WHERE flag = ?', [true])).toEqual([{ label: 'a' }]);
      expect(await db.get('SELECT id FROM items WHERE id = ?', [2])).toBeUndefined();
    });

    it('commits a transaction whole, and undoes a failing one whole, passing its error on', async () => {
      const db = await withTable();
      await db.transaction(async (tx) => {
        await tx.run('INSERT INTO items (id, label) VALUES (?, ?)', [1, 'a']);
        await tx.run('INSERT INTO items (id, label) VALUES (?, ?)', [2, 'b']);
      });
      const failing = db.transaction(async (tx) => {
        await tx.run('INSERT INTO items (id, label) VALUES (?, ?)', [3, 'c']);
        throw new Error('changed my mind');
      });
      await expect(failing).rejects.toThrow('changed my mind');
      expect(await db.all('SELECT label FROM items ORDER BY id')).toEqual([{ label: 'a' }, { label: 'b' }]);
    });

    it('undoes only the failing one of concurrent transactions', async () => {
      const db = await withTable();
      const results = await Promise.allSettled(
        ['a', 'b', 'a', 'c'].map((label) => db.transaction((tx) => tx.run('INSERT INTO items (label) VALUES (?)', [label]))),
      );
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(await db.all('SELECT label FROM items ORDER BY label')).toEqual([{ label: 'a' }, { label: 'b' }, { label: 'c' }]);
    });

    it('never shows a transaction’s uncommitted rows outside it', async () => {
      const db = await withTable();
      let seenOutside: unknown[] = ['not read'];
      await db.transaction(async (tx) => {
        await tx.run('INSERT INTO items (label) VALUES (?)', ['pending']);
        seenOutside = await db.all('SELECT label FROM items');
        expect(await tx.all('SELECT label FROM items')).toEqual([{ label: 'pending' }]);
      });
      expect(seenOutside).toEqual([]);
      expect(await db.all('SELECT label FROM items')).toEqual([{ label: 'pending' }]);
    });

    it('moves its commit stamp, when it offers one, with every commit and not with reads', async () => {
      const db = await withTable();
      if (!db.commitStamp) return; // an adapter without a stamp lets nothing be cached: nothing to check
      const before = db.commitStamp();
      await db.get('SELECT count(*) AS n FROM items');
      expect(db.commitStamp()).toBe(before);
      await db.transaction((tx) => tx.run('INSERT INTO items (id, label) VALUES (7, ?)', ['x']));
      const after = db.commitStamp();
      expect(after).not.toBe(before);
      await db.run('UPDATE items SET label = ? WHERE id = 7', ['y']);
      expect(db.commitStamp()).not.toBe(after);
    });

    it('serialises read-modify-write transactions: no lost update', async () => {
      const db = await withTable();
      await db.run('INSERT INTO items (id, label) VALUES (1, ?)', ['0']);
      await Promise.all(
        Array.from({ length: 20 }, () =>
          db.transaction(async (tx) => {
            const row = await tx.get<{ label: string }>('SELECT label FROM items WHERE id = 1');
            await new Promise((resolve) => setImmediate(resolve));
            await tx.run('UPDATE items SET label = ? WHERE id = 1', [String(Number(row!.label) + 1)]);
          }),
        ),
      );
      expect(await db.get('SELECT label FROM items WHERE id = 1')).toEqual({ label: '20' });
    });
  });
}
