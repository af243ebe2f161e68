import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createSqlAspectStore } from '../../src/store/sql-store';
import { describeLineageContract } from './lineage-contract';
import { describeStoreContract } from './store-contract';
import { anything, keyed } from './writes';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

describeStoreContract('SQLite', databases);
describeLineageContract('SQLite', databases);

describe('aspect store: SQLite, one entity read from the cache', () => {
  const TAG = 'urn:li:tag:pii';
  const properties = (name: string) =>
    keyed({ urn: TAG, aspect: 'tagProperties', changeType: 'UPSERT', value: { name }, systemMetadata: null });

  it('answers synchronously (a map, no promise) while nothing commits, and reads again after any commit', async () => {
    const db = await databases.open();
    const store = createSqlAspectStore(db);
    await store.migrate();
    await store.write([properties('PII')], { actor: 'urn:li:corpuser:jdoe', time: 1 }, anything);
    const first = await store.latest([TAG], ['tagProperties']);
    const again = store.latest([TAG], ['tagProperties']);
    expect(again).toBeInstanceOf(Map);
    expect(again).toBe(first); // shared between callers, who never change it
    // Another process's commit (a second handle on the file) is seen by the very next read.
    const other = createSqlAspectStore(await databases.openAgain(db));
    await other.write([properties('Sensitive')], { actor: 'urn:li:corpuser:jdoe', time: 2 }, anything);
    const after = store.latest([TAG], ['tagProperties']);
    expect(after).toBeInstanceOf(Promise);
    expect((await after).get(TAG)?.get('tagProperties')?.value).toEqual({ name: 'Sensitive' });
    expect(store.latest([TAG], ['tagProperties'])).toBe(await after);
  });
});
