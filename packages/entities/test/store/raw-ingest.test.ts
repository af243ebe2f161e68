import { openSqliteDatabase } from '@mds/db';
import { createSqlSearchIndex } from '@mds/search';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openBareStore } from '../../src/store/raw-ingest';
import { createSqlAspectStore } from '../../src/store/sql-store';

// The bare store `pnpm bench` measures batched ingestion against (`@mds/entities/raw-store`).
const dir = mkdtempSync(join(tmpdir(), 'mds-bare-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,bare.orders,PROD)';
const proposal = (aspectName: string, value: unknown) => ({
  entityType: 'dataset',
  entityUrn: urn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { value: JSON.stringify(value) },
  systemMetadata: { runId: 'bare' },
});

it('writes proposals into the same store and search index as the server, with its key, checking nothing', async () => {
  const file = join(dir, 'entities.db');
  const bare = await openBareStore(openSqliteDatabase(file));
  // The second value breaks datasetProperties' shape (customProperties is a map of strings): ingestion would answer 422.
  const written = await bare.ingest(
    [
      proposal('status', { removed: false }),
      proposal('datasetProperties', { name: 'orders', description: 'Daily orders', customProperties: { rows: 12 } }),
    ],
    'urn:li:corpuser:bench',
  );
  expect(written).toBe(2);
  await bare.close();

  const db = openSqliteDatabase(file);
  const search = createSqlSearchIndex(db);
  const store = createSqlAspectStore(db, { search });
  const stored = (await store.latest([urn])).get(urn)!;
  expect([...stored.keys()].sort()).toEqual(['datasetKey', 'datasetProperties', 'status']);
  expect(stored.get('datasetKey')!.value).toEqual({ platform: 'urn:li:dataPlatform:hive', name: 'bare.orders', origin: 'PROD' });
  expect(stored.get('datasetProperties')!.value).toMatchObject({ customProperties: { rows: 12 } });
  expect(stored.get('status')!.createdBy).toBe('urn:li:corpuser:bench');
  expect(
    (await search.search({ entityTypes: ['dataset'], input: 'orders', start: 0, count: 10, facets: [] })).hits.map((h) => h.urn),
  ).toEqual([urn]);
  await db.close();
});
