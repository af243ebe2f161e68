import type { SqlDatabase } from '@mds/db';
import type { TestSqlDatabases } from '@mds/db/testing';
import { createSqlSearchIndex, type SearchIndex } from '@mds/search';
import { unprocessable } from '@mds/schema';
import { describe, expect, it } from 'vitest';
import { ItemWriteError, type AspectStore, type Audit, type ValueCheck } from '../../src/store/port';
import { createSqlAspectStore } from '../../src/store/sql-store';
import { anything, keyed, type TestWrite } from './writes';

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const JDOE = 'urn:li:corpuser:jdoe';
const EDITOR = 'urn:li:corpuser:editor';
const at = (time: number, actor = JDOE) => ({ actor, time });
const tags = (...names: string[]) => ({ tags: names.map((name) => ({ tag: `urn:li:tag:${name}` })) });
const upsert = (value: Record<string, unknown>, more: Partial<TestWrite> = {}): TestWrite => ({
  urn: DATASET,
  aspect: 'globalTags',
  changeType: 'UPSERT',
  value,
  ...more,
});

/** The store as these tests drive it: writes keyed as the service keys them, with a check that passes all. */
type TestStore = Omit<AspectStore, 'write'> & {
  write(items: readonly TestWrite[], audit: Audit, check?: ValueCheck): ReturnType<AspectStore['write']>;
};
function testStore(db: SqlDatabase, options: { search?: SearchIndex } = {}): TestStore {
  const store = createSqlAspectStore(db, options);
  return { ...store, write: (items, audit, check = anything) => store.write(items.map(keyed), audit, check) };
}

/** The ItemWriteError a write rejects with. */
async function refusal(write: Promise<unknown>): Promise<ItemWriteError> {
  const error = await write.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ItemWriteError);
  return error as ItemWriteError;
}

/**
 * What the aspect store promises on every dialect of the storage port, `databases` giving fresh databases (and second
 * handles on them, as a second replica has).
 */
export function describeStoreContract(name: string, databases: Pick<TestSqlDatabases, 'open' | 'openAgain'>) {
  /** A store on a fresh database, migrated. */
  async function freshStore(): Promise<TestStore> {
    const store = testStore(await databases.open());
    await store.migrate();
    return store;
  }

  describe(`aspect store: ${name}`, () => {
    describe('writes of versioned aspects (entities-api §3.2)', () => {
      it('12.1 a first UPSERT stores v0 only, with systemMetadata.version "1" and createdby = caller', async () => {
        const store = await freshStore();
        expect(
          await store.write(
            [upsert(tags('pii'), { systemMetadata: { lastObserved: 1000, runId: 'r1', properties: { clientId: 'x' } } })],
            at(5000),
          ),
        ).toEqual([{ urn: DATASET, aspect: 'globalTags', outcome: 'written' }]);
        const versions = await store.versions(DATASET, 'globalTags');
        expect(versions).toHaveLength(1);
        expect(versions[0]).toEqual({
          urn: DATASET,
          aspect: 'globalTags',
          version: 0,
          value: tags('pii'),
          systemMetadata: {
            lastObserved: 1000,
            runId: 'r1',
            lastRunId: 'no-run-id-provided',
            properties: { clientId: 'x' },
            version: '1',
            aspectCreated: { time: 5000, actor: JDOE },
            aspectModified: { time: 5000, actor: JDOE },
          },
          createdOn: 5000,
          createdBy: JDOE,
          createdFor: null,
        });
      });

      it('12.2 a changed UPSERT moves the old value, with its old systemMetadata, to version 1 and overwrites v0; version becomes "2", then "3"', async () => {
        const store = await freshStore();
        await store.write([upsert(tags('pii'), { systemMetadata: { runId: 'r1' } })], at(1000));
        const first = (await store.get(DATASET, 'globalTags'))!;
        await store.write([upsert(tags('pii', 'gold'), { systemMetadata: { runId: 'r2' } })], at(2000, EDITOR));

        expect(await store.get(DATASET, 'globalTags', 1)).toEqual({ ...first, version: 1 });
        const latest = (await store.get(DATASET, 'globalTags'))!;
        expect(latest).toMatchObject({ value: tags('pii', 'gold'), createdOn: 2000, createdBy: EDITOR });
        expect(latest.systemMetadata).toMatchObject({
          runId: 'r2',
          lastRunId: 'r1',
          version: '2',
          aspectCreated: { time: 1000, actor: JDOE },
          aspectModified: { time: 2000, actor: EDITOR },
        });

        await store.write([upsert(tags('gold'))], at(3000));
        expect((await store.get(DATASET, 'globalTags'))!.systemMetadata?.version).toBe('3');
        expect((await store.versions(DATASET, 'globalTags')).map((v) => [v.version, v.value])).toEqual([
          [0, tags('gold')],
          [1, tags('pii')],
          [2, tags('pii', 'gold')],
        ]);
      });

      it('12.3 an identical UPSERT adds no row; only lastObserved, runId and lastRunId (= the previous runId) change', async () => {
        const store = await freshStore();
        await store.write([upsert(tags('pii'), { systemMetadata: { lastObserved: 1000, runId: 'r1' } })], at(1000));
        const before = (await store.get(DATASET, 'globalTags'))!;
        expect(await store.write([upsert(tags('pii'), { systemMetadata: { lastObserved: 2000, runId: 'r2' } })], at(2000, EDITOR))).toEqual(
          [{ urn: DATASET, aspect: 'globalTags', outcome: 'unchanged' }],
        );
        const after = await store.versions(DATASET, 'globalTags');
        expect(after).toHaveLength(1);
        expect(after[0]).toEqual({
          ...before,
          systemMetadata: { ...before.systemMetadata, lastObserved: 2000, runId: 'r2', lastRunId: 'r1' },
        });
      });

      it('12.4 key order is no change', async () => {
        const store = await freshStore();
        const value = { tags: [{ tag: 'urn:li:tag:pii', context: 'c' }] };
        await store.write([upsert(value)], at(1000));
        expect(await store.write([upsert({ tags: [{ context: 'c', tag: 'urn:li:tag:pii' }] })], at(2000))).toEqual([
          { urn: DATASET, aspect: 'globalTags', outcome: 'unchanged' },
        ]);
      });

      it('12.5 the first write to a new URN also stores the key aspect built from the URN parts', async () => {
        const store = await freshStore();
        await store.write([upsert(tags('pii'))], at(1000));
        expect(await store.get(DATASET, 'datasetKey')).toMatchObject({
          value: { platform: 'urn:li:dataPlatform:hive', name: 'db.orders', origin: 'PROD' },
          createdBy: JDOE,
          systemMetadata: { version: '1' },
        });
        expect(await store.exists(DATASET)).toBe(true);
        expect(await store.exists('urn:li:dataset:(urn:li:dataPlatform:hive,other,PROD)')).toBe(false);
      });

      it('12.6 a key aspect sent by the client is ignored', async () => {
        const store = await freshStore();
        const results = await store.write(
          [upsert({ platform: 'urn:li:dataPlatform:mysql', name: 'forged', origin: 'DEV' }, { aspect: 'datasetKey' })],
          at(1000),
        );
        expect(results).toEqual([{ urn: DATASET, aspect: 'datasetKey', outcome: 'skipped' }]);
        expect((await store.get(DATASET, 'datasetKey'))!.value).toEqual({
          platform: 'urn:li:dataPlatform:hive',
          name: 'db.orders',
          origin: 'PROD',
        });
      });

      it('12.7 (store) version 1 is the archived value, -1 the newest archived; a missing version is absent', async () => {
        const store = await freshStore();
        for (const [i, name] of ['a', 'b', 'c'].entries()) await store.write([upsert(tags(name))], at(1000 + i));
        expect((await store.get(DATASET, 'globalTags', 1))!.value).toEqual(tags('a'));
        expect((await store.get(DATASET, 'globalTags', -1))!.value).toEqual(tags('b'));
        expect((await store.get(DATASET, 'globalTags', -2))!.value).toEqual(tags('a'));
        expect(await store.get(DATASET, 'globalTags', -3)).toBeUndefined();
        expect(await store.get(DATASET, 'globalTags', 3)).toBeUndefined();
        expect(await store.get(DATASET, 'ownership')).toBeUndefined();
      });

      it('drops the server-owned systemMetadata fields a client sends (version, aspectCreated, aspectModified)', async () => {
        const store = await freshStore();
        await store.write(
          [upsert(tags('pii'), { systemMetadata: { version: '99', aspectCreated: { time: 1, actor: 'urn:li:corpuser:x' } } })],
          at(1000),
        );
        expect((await store.get(DATASET, 'globalTags'))!.systemMetadata).toMatchObject({
          version: '1',
          aspectCreated: { time: 1000, actor: JDOE },
        });
      });
    });

    describe('conditional writes (entities-api §6.3, §6.4)', () => {
      it('12.18 CREATE on an existing aspect → 422, nothing written; CREATE_ENTITY on an existing entity likewise', async () => {
        const store = await freshStore();
        await store.write([upsert(tags('pii'))], at(1000));
        const create = await refusal(store.write([upsert(tags('gold'), { changeType: 'CREATE' })], at(2000)));
        expect([create.index, create.error.status, create.error.message]).toEqual([
          0,
          422,
          'Cannot perform CREATE since the aspect already exists.',
        ]);
        const entity = await refusal(store.write([upsert({ owners: [] }, { aspect: 'ownership', changeType: 'CREATE_ENTITY' })], at(2000)));
        expect([entity.error.status, entity.error.message]).toEqual([
          422,
          'Cannot perform CREATE_ENTITY if not exists since the entity key already exists.',
        ]);
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('pii'));
        expect(await store.get(DATASET, 'ownership')).toBeUndefined();
      });

      it('12.19 If-None-Match: * turns those conflicts into silent successes', async () => {
        const store = await freshStore();
        await store.write([upsert(tags('pii'))], at(1000));
        const headers = { 'if-none-match': '*' };
        expect(
          await store.write(
            [
              upsert(tags('gold'), { changeType: 'CREATE', headers }),
              upsert({ owners: [] }, { aspect: 'ownership', changeType: 'CREATE_ENTITY', headers }),
            ],
            at(2000),
          ),
        ).toEqual([
          { urn: DATASET, aspect: 'globalTags', outcome: 'skipped' },
          { urn: DATASET, aspect: 'ownership', outcome: 'skipped' },
        ]);
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('pii'));
      });

      it('If-Version-Match: writes only over the version named, else 422 and nothing written', async () => {
        const store = await freshStore();
        await store.write([upsert(tags('pii'))], at(1000));
        const stale = await refusal(store.write([upsert(tags('gold'), { headers: { 'If-Version-Match': '2' } })], at(2000)));
        expect([stale.error.status, stale.error.message]).toEqual([
          422,
          `Expected version 2 of aspect globalTags of ${DATASET}, found version 1 (If-Version-Match).`,
        ]);
        await store.write([upsert(tags('gold'), { headers: { 'If-Version-Match': '1' } })], at(3000));
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('gold'));
      });
    });

    describe('a write is all or nothing', () => {
      it('a refused item 3 writes nothing of items 0-2, and names its index', async () => {
        const store = await freshStore();
        const other = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)';
        await store.write([upsert(tags('x'))], at(500));
        const failed = await refusal(
          store.write(
            [
              upsert(tags('a'), { urn: other }),
              upsert(tags('b')),
              upsert({ owners: [] }, { aspect: 'ownership', urn: other }),
              upsert(tags('c'), { changeType: 'CREATE' }),
            ],
            at(1000),
          ),
        );
        expect([failed.index, failed.error.status, failed.error.message]).toEqual([
          3,
          422,
          'Cannot perform CREATE since the aspect already exists.',
        ]);
        expect(await store.latest([other])).toEqual(new Map());
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('x'));
      });

      it('hands a PATCH result to the caller’s check, and a check that refuses it undoes the whole write', async () => {
        const store = await freshStore();
        const seen: [string, unknown][] = [];
        const check: ValueCheck = (aspect, value) => {
          seen.push([aspect, value]);
          if ((value.tags as unknown[]).length > 1) throw unprocessable('two tags are too many here');
        };
        const add = (tag: string) =>
          upsert([{ op: 'add', path: `/tags/urn:li:tag:${tag}`, value: { tag: `urn:li:tag:${tag}` } }] as never, { changeType: 'PATCH' });
        await store.write([add('a')], at(1000), check);
        expect(seen).toEqual([['globalTags', tags('a')]]);
        const failed = await refusal(store.write([upsert({ removed: true }, { aspect: 'status' }), add('b')], at(2000), check));
        expect([failed.index, failed.error.message]).toEqual([1, 'two tags are too many here']);
        expect(await store.get(DATASET, 'status')).toBeUndefined();
        expect((await store.get(DATASET, 'globalTags'))!.value).toEqual(tags('a'));
      });

      it('50 concurrent writes of one aspect keep a gap-free history: no lost update, no duplicate version', async () => {
        const store = await freshStore();
        await Promise.all(Array.from({ length: 50 }, (_, i) => store.write([upsert(tags(`t${i}`))], at(1000 + i))));
        const versions = await store.versions(DATASET, 'globalTags');
        expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 50 }, (_, i) => i));
        expect(versions[0]!.systemMetadata?.version).toBe('50');
        expect(new Set(versions.map((v) => JSON.stringify(v.value))).size).toBe(50);
      });
    });

    describe('reads and deletes', () => {
      it('reads the latest aspects of many urns in one call, and only those asked for', async () => {
        const store = await freshStore();
        const urns = Array.from({ length: 1200 }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,t${i},PROD)`);
        await store.write(
          urns.map((urn) => upsert(tags('pii'), { urn })),
          at(1000),
        );
        const latest = await store.latest(urns, ['globalTags']);
        expect(latest.size).toBe(1200);
        expect([...latest.get(urns[1199]!)!.keys()]).toEqual(['globalTags']);
        expect([...(await store.latest([urns[0]!])).get(urns[0]!)!.keys()].sort()).toEqual(['datasetKey', 'globalTags']);
      });

      it('a soft-deleted entity exists unless asked otherwise; a hard delete removes every row of the urn', async () => {
        const store = await freshStore();
        await store.write([upsert(tags('a')), upsert(tags('b')), upsert({ removed: true }, { aspect: 'status' })], at(1000));
        expect(await store.exists(DATASET)).toBe(true);
        expect(await store.exists(DATASET, { includeSoftDeleted: false })).toBe(false);
        expect(await store.deleteEntity(DATASET)).toBe(4); // the key, globalTags v0 and v1, status
        expect(await store.exists(DATASET)).toBe(false);
        expect(await store.latest([DATASET])).toEqual(new Map());
      });
    });

    describe('two replicas on one database', () => {
      /** Two stores on one database, as two replicas have. */
      async function twoReplicas(): Promise<[TestStore, TestStore]> {
        const db = await databases.open();
        const first = testStore(db);
        await first.migrate();
        return [first, testStore(await databases.openAgain(db))];
      }

      it('40 concurrent writes of one aspect spread over both keep a gap-free history: no lost update, no duplicate version', async () => {
        const replicas = await twoReplicas();
        await Promise.all(Array.from({ length: 40 }, (_, i) => replicas[i % 2]!.write([upsert(tags(`t${i}`))], at(1000 + i))));
        const versions = await replicas[1].versions(DATASET, 'globalTags');
        expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 40 }, (_, i) => i));
        expect(versions[0]!.systemMetadata?.version).toBe('40');
        expect(new Set(versions.map((v) => JSON.stringify(v.value))).size).toBe(40);
      });

      it('20 concurrent PATCHes adding a tag each, spread over both, all land', async () => {
        const replicas = await twoReplicas();
        const addTag = (i: number) =>
          upsert([{ op: 'add', path: `/tags/urn:li:tag:t${i}`, value: { tag: `urn:li:tag:t${i}` } }] as never, { changeType: 'PATCH' });
        await Promise.all(Array.from({ length: 20 }, (_, i) => replicas[i % 2]!.write([addTag(i)], at(1000 + i))));
        const latest = (await replicas[0].get(DATASET, 'globalTags'))!;
        expect((latest.value.tags as { tag: string }[]).map((t) => t.tag).sort()).toEqual(
          Array.from({ length: 20 }, (_, i) => `urn:li:tag:t${i}`).sort(),
        );
        expect(latest.systemMetadata?.version).toBe('20');
      });

      it('20 concurrent writes of different entities over both, sharing a new tag, are each found by that tag', async () => {
        const db = await databases.open();
        const replicas = [db, await databases.openAgain(db)].map((handle) => {
          const search = createSqlSearchIndex(handle);
          return { search, store: testStore(handle, { search }) };
        });
        await replicas[0]!.search.migrate();
        await replicas[0]!.store.migrate();
        const urn = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,t${i},PROD)`;
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            replicas[i % 2]!.store.write([upsert(tags('shared', `own${i}`), { urn: urn(i) })], at(1000 + i)),
          ),
        );
        const found = await replicas[1]!.search.search({
          input: '*',
          start: 0,
          count: 50,
          filters: [[{ field: 'tags', values: ['urn:li:tag:shared'] }]],
          facets: ['tags'],
        });
        expect(found.total).toBe(20);
        expect(found.facets[0]!.values).toContainEqual({ value: 'urn:li:tag:shared', count: 20 });
      });

      it('CREATE_ENTITY raced by 10 writers over both has exactly one winner; the others are told the entity exists', async () => {
        const replicas = await twoReplicas();
        const outcomes = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) =>
            replicas[i % 2]!.write([upsert(tags(`t${i}`), { changeType: 'CREATE_ENTITY' })], at(1000 + i)),
          ),
        );
        expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
        for (const outcome of outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected')) {
          expect(outcome.reason).toBeInstanceOf(ItemWriteError);
          expect(outcome.reason.error.message).toBe('Cannot perform CREATE_ENTITY if not exists since the entity key already exists.');
        }
        expect(await replicas[1].versions(DATASET, 'globalTags')).toHaveLength(1);
      });
    });

    it('commits an entity’s search document with its aspects, and deletes it with them', async () => {
      const db = await databases.open();
      const search = createSqlSearchIndex(db);
      const store = testStore(db, { search });
      await Promise.all([store.migrate(), search.migrate()]);
      await store.write(
        [upsert({ name: 'Orders', description: 'Every order, by day' }, { aspect: 'datasetProperties' }), upsert(tags('pii'))],
        at(1000),
      );
      const found = await search.search({ input: 'ord', start: 0, count: 10, filters: [[{ field: 'tags', values: ['urn:li:tag:pii'] }]] });
      expect(found.hits.map((h) => [h.urn, h.matchedFields.map((f) => f.name)])).toEqual([[DATASET, ['name', 'description']]]);
      await store.deleteEntity(DATASET);
      expect((await search.search({ input: '*', start: 0, count: 10 })).total).toBe(0);
    });

    describe('relationships', () => {
      const OTHER = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)';

      it('keeps the edges of the latest values, pages them by type then urn, and drops them with their aspect', async () => {
        const store = await freshStore();
        await store.write([upsert(tags('pii', 'gold')), upsert(tags('pii'), { urn: OTHER })], at(1000));
        expect(await store.referencesTo('urn:li:tag:pii', 'TaggedWith')).toEqual([
          { urn: OTHER, aspect: 'globalTags' },
          { urn: DATASET, aspect: 'globalTags' },
        ]);
        const outgoing = { direction: 'OUTGOING' as const, types: ['TaggedWith'], start: 0, count: 1 };
        expect(await store.relationships(DATASET, outgoing)).toEqual({
          total: 2,
          relationships: [{ type: 'TaggedWith', entity: 'urn:li:tag:gold' }],
        });
        expect(await store.relationships('urn:li:tag:pii', { direction: 'INCOMING', types: [], start: 1, count: 5 })).toEqual({
          total: 2,
          relationships: [{ type: 'TaggedWith', entity: DATASET }],
        });
        await store.write([upsert(tags('gold'))], at(2000));
        expect(await store.referencesTo('urn:li:tag:pii', 'TaggedWith')).toEqual([{ urn: OTHER, aspect: 'globalTags' }]);
        expect(await store.deleteAspects(OTHER, ['globalTags'])).toBe(1);
        expect(await store.referencesTo('urn:li:tag:pii', 'TaggedWith')).toEqual([]);
        expect(await store.isEmpty()).toBe(false);
      });

      it("answers every @Relationship of DataHub's model, incl. a schema field's tags and a data job's flow in its key", async () => {
        const store = await freshStore();
        const job = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),load)';
        const field = { fieldPath: 'id', type: { type: { 'com.linkedin.schema.StringType': {} } }, nativeDataType: 'string' };
        await store.write(
          [
            upsert(
              { ...field, fields: [{ ...field, globalTags: tags('pii'), glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Id' }] } }] },
              {
                aspect: 'schemaMetadata',
              },
            ),
            upsert({ flow: 'urn:li:dataFlow:(airflow,etl,PROD)', jobId: 'load' }, { urn: job, aspect: 'dataJobKey' }),
          ],
          at(1000),
        );
        const all = { direction: 'OUTGOING' as const, types: [], start: 0, count: 10 };
        expect(await store.relationships(DATASET, all)).toEqual({
          total: 2,
          relationships: [
            { type: 'SchemaFieldTaggedWith', entity: 'urn:li:tag:pii' },
            { type: 'SchemaFieldWithGlossaryTerm', entity: 'urn:li:glossaryTerm:Id' },
          ],
        });
        expect((await store.relationships(job, all)).relationships).toEqual([
          { type: 'IsPartOf', entity: 'urn:li:dataFlow:(airflow,etl,PROD)' },
        ]);
      });

      it('reindex rebuilds the edges of rows written without them (a database restored from DataHub)', async () => {
        const db = await databases.open();
        const store = testStore(db);
        await store.migrate();
        const value = JSON.stringify({ domains: ['urn:li:domain:finance'] });
        // createdon as each dialect's layout holds it: DataHub's timestamp on PostgreSQL, milliseconds on SQLite.
        const createdon = db.dialect === 'postgres' ? "TIMESTAMP '1970-01-01 00:00:01'" : '1000';
        await db.run(
          `INSERT INTO metadata_aspect_v2 (urn, aspect, version, metadata, systemmetadata, createdon, createdby) VALUES (?, ?, 0, ?, NULL, ${createdon}, ?)`,
          [DATASET, 'domains', value, JDOE],
        );
        const incoming = { direction: 'INCOMING' as const, types: ['AssociatedWith'], start: 0, count: 10 };
        expect((await store.relationships('urn:li:domain:finance', incoming)).total).toBe(0);
        expect(await store.reindex()).toBe(1);
        expect(await store.relationships('urn:li:domain:finance', incoming)).toEqual({
          total: 1,
          relationships: [{ type: 'AssociatedWith', entity: DATASET }],
        });
        // Once more: the same edges, none twice.
        await store.reindex();
        expect((await store.relationships('urn:li:domain:finance', incoming)).total).toBe(1);
      });
    });
  });
}
