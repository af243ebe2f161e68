import type { SqlDatabase } from '@mds/db';
import { postgresTestDatabases } from '@mds/db/testing';
import { createSqlSearchIndex } from '@mds/search';
import { afterAll, afterEach, expect, it } from 'vitest';
import { createSqlAspectStore } from '../../src/store/sql-store';
import { anything, keyed, type TestWrite } from './writes';
import { describeLineageContract } from './lineage-contract';
import { describeStoreContract } from './store-contract';

const databases = postgresTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeStoreContract('PostgreSQL', databases);
describeLineageContract('PostgreSQL', databases);

it('concurrent batches that share new tags never wait for one another in a circle (no deadlock, no retry)', async () => {
  const db = await databases.open();
  // PostgreSQL undoes one transaction of a deadlock (after deadlock_timeout) and the adapter runs it again: count runs.
  let runs = 0;
  const counted: SqlDatabase = { ...db, transaction: (work, options) => db.transaction((tx) => (runs++, work(tx)), options) };
  const search = createSqlSearchIndex(counted);
  const store = createSqlAspectStore(counted, { search });
  await store.migrate();
  await search.migrate();
  runs = 0; // the migrations' own transactions (search fills its facet rows) are not the batches'
  // Each batch tags its datasets with new tags shared by every batch, each dataset two of them, in no common order.
  const batch = (b: number): TestWrite[] =>
    Array.from({ length: 50 }, (_, k) => ({
      urn: `urn:li:dataset:(urn:li:dataPlatform:hive,db.b${b}_t${k},PROD)`,
      aspect: 'globalTags',
      changeType: 'UPSERT',
      value: { tags: [{ tag: `urn:li:tag:shared_${(b * 7 + k) % 20}` }, { tag: `urn:li:tag:shared_${(b * 3 + k * 11) % 20}` }] },
    }));
  await Promise.all(
    Array.from({ length: 8 }, (_, b) => store.write(batch(b).map(keyed), { actor: 'urn:li:corpuser:etl', time: 1 }, anything)),
  );
  expect(runs).toBe(8);
  const found = await search.search({ input: '*', start: 0, count: 0, facets: ['tags'], maxFacetValues: 50 });
  expect(found.total).toBe(400);
  expect(found.facets[0]!.values).toHaveLength(20);
});
