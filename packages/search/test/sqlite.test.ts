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

describe('SQLite (FTS5) query plans', () => {
  it('a search scoped to a term (the entities naming some urns as siblings) reads only the documents holding it', async () => {
    const { db, index } = await fresh();
    const doc = (k: number) =>
      searchDocument(
        findEntity('dataset')!,
        `urn:li:dataset:(urn:li:dataPlatform:hive,t${k},PROD)`,
        new Map<string, unknown>([
          ['datasetProperties', { name: `t${k}` }],
          ['globalTags', { tags: [{ tag: `urn:li:tag:t${k % 3}` }] }],
          ...(k % 100 === 0 ? [['siblings', { siblings: [`urn:li:dataset:(urn:li:dataPlatform:dbt,t${k},PROD)`] }] as const] : []),
        ]),
      );
    await db.transaction((tx) =>
      index.put(
        tx,
        Array.from({ length: 500 }, (_, k) => doc(k)),
      ),
    );
    const statements: { sql: string; params: readonly unknown[] }[] = [];
    const all = db.all.bind(db);
    db.all = <Row>(sql: string, params: readonly unknown[] = []) => (statements.push({ sql, params }), all<Row>(sql, params));
    const siblingsOf = ['t0', 't200', 't201'].map((name) => `urn:li:dataset:(urn:li:dataPlatform:dbt,${name},PROD)`);
    const found = await index.search({
      entityTypes: ['dataset'],
      input: '*',
      filters: [[{ field: 'siblings', values: siblingsOf }]],
      start: 0,
      count: 10,
      sort: { field: 'name', order: 'ASCENDING' },
    });
    expect([found.total, found.hits.map((h) => h.urn)]).toEqual([
      2,
      ['t0', 't200'].map((name) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`),
    ]);
    expect(found.facets.find((f) => f.field === 'tags')?.values).toEqual([
      { value: 'urn:li:tag:t0', count: 1 },
      { value: 'urn:li:tag:t2', count: 1 },
    ]);
    // Every statement (the page, and each facet count) reaches documents by their id from the term's rows: none walks
    // the documents of a type, which took time in proportion to the whole index for every dataset a page shows.
    expect(statements.length).toBeGreaterThan(1);
    db.all = all;
    for (const { sql, params } of statements) {
      const plan = (await db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map((row) => row.detail);
      expect(plan.filter((step) => /\b(SCAN|SEARCH) d\b/.test(step))).toEqual(['SEARCH d USING INTEGER PRIMARY KEY (rowid=?)']);
    }
  });
});
