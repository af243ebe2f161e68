import { openSqliteDatabase, type SqlDatabase } from '@mds/db';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqlSearchIndex, searchDocument } from '../src/index';
import { findEntity } from '@mds/core';
import { searchIndexContract, searchUpgradeContract } from './contract';

const opened: { db: SqlDatabase; dir: string }[] = [];
afterEach(async () => {
  for (const { db, dir } of opened.splice(0)) {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const fresh = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mds-search-'));
  const db = openSqliteDatabase(join(dir, 'search.db'));
  opened.push({ db, dir });
  const index = createSqlSearchIndex(db);
  await index.migrate();
  return { db, index };
};

searchIndexContract('SQLite (FTS5)', fresh);
searchUpgradeContract('SQLite (FTS5)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mds-search-'));
  const db = openSqliteDatabase(join(dir, 'search.db'));
  opened.push({ db, dir });
  return db;
});

describe('SQLite (FTS5) index repairs', () => {
  it('takes documents again after their rows were deleted behind its back (mds reindex after a hand-edited file)', async () => {
    const { db, index } = await fresh();
    const doc = (name: string) => searchDocument(findEntity('tag')!, `urn:li:tag:${name}`, new Map([['tagProperties', { name }]]));
    await db.transaction((tx) => index.put(tx, doc('first'), { fresh: true }));
    await db.run('DELETE FROM search_document'); // its words and terms stay behind
    await db.transaction(async (tx) => {
      await index.put(tx, doc('first'));
      await index.put(tx, doc('second'), { fresh: true });
    });
    const found = await index.search({ input: '*', start: 0, count: 10, facets: [] });
    expect(found.hits.map((h) => h.urn)).toEqual(['urn:li:tag:first', 'urn:li:tag:second']);
  });
});
