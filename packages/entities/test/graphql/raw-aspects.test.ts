import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { upsert } from './edit-support';
import { schemaOf } from './schema';
import { createEntities, createEntityGraphql, SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const PLATFORM = 'urn:li:dataPlatform:hive';
const context: ApiContext = { actor: SYSTEM_ACTOR, requestId: 'test' };

async function setup() {
  const entities = await createEntities({ db: await databases.open() });
  await entities.service.ingest(
    SYSTEM_ACTOR,
    [
      upsert(DATASET, 'datasetProperties', { name: 'Orders', customProperties: {} }),
      upsert(DATASET, 'status', { removed: false }),
      upsert(PLATFORM, 'dataPlatformInfo', {
        name: 'hive',
        displayName: 'Hive',
        type: 'FILE_SYSTEM',
        datasetNameDelimiter: '.',
      }),
    ],
    { batch: true },
  );
  const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search }));
  return async (source: string) => {
    const result = (await graphql({ schema, source, contextValue: context })) as ExecutionResult<Record<string, any>>;
    expect(result.errors).toBeUndefined();
    return result.data!;
  };
}

describe("an entity's raw aspects (DataHub's WeaklyTypedAspectsResolver)", () => {
  it("answers every stored aspect, or those named; autoRenderOnly keeps only @Aspect.autoRender ones (none in DataHub's model)", async () => {
    const query = await setup();
    const names = async (input: string) =>
      (await query(`{ dataset(urn: "${DATASET}") { aspects${input} { aspectName payload renderSpec { displayType displayName key } } } }`))
        .dataset.aspects as { aspectName: string; payload: string; renderSpec: unknown }[];
    const all = await names('');
    expect(all.map((a) => a.aspectName).sort()).toEqual(['datasetKey', 'datasetProperties', 'status']);
    expect(all.every((a) => a.renderSpec === null)).toBe(true);
    const named = await names('(input: { aspectNames: ["status"] })');
    expect(named).toEqual([{ aspectName: 'status', payload: '{"removed":false}', renderSpec: null }]);
    // The UI's entity page asks for the generic tab's aspects this way; DataHub's model at c731e725 marks none.
    expect(await names('(input: { autoRenderOnly: true })')).toEqual([]);
    expect((await names('(input: { autoRenderOnly: false })')).length).toBe(3);
  });
});

describe("DataPlatform.displayName (deprecated), as DataHub's DataPlatformMapper answers it", () => {
  it('is null; the name shown is properties.displayName', async () => {
    const query = await setup();
    const data = await query(`{ dataPlatform(urn: "${PLATFORM}") { name displayName properties { displayName } } }`);
    expect(data.dataPlatform).toEqual({ name: 'hive', displayName: null, properties: { displayName: 'Hive' } });
  });
});

describe("dataPlatformInstance(urn:), as DataHub's DataPlatformInstanceType loads it", () => {
  it('answers a stored instance with what its urn says and its properties; null when absent or of another type', async () => {
    const query = await setup();
    const instance = 'urn:li:dataPlatformInstance:(urn:li:dataPlatform:hive,warehouse)';
    const data = await query(`{
      absent: dataPlatformInstance(urn: "${instance}") { urn }
      other: dataPlatformInstance(urn: "${PLATFORM}") { urn }
    }`);
    expect(data).toEqual({ absent: null, other: null });
    const entities = await createEntities({ db: await databases.open() });
    await entities.service.ingest(
      SYSTEM_ACTOR,
      [upsert(instance, 'dataPlatformInstanceProperties', { name: 'Warehouse', customProperties: { region: 'eu' } })],
      { batch: true },
    );
    const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search }));
    const result = await graphql({
      schema,
      source: `{ dataPlatformInstance(urn: "${instance}") { urn type instanceId platform { urn } properties { name customProperties { key value } } } }`,
      contextValue: context,
    });
    expect(result).toEqual({
      data: {
        dataPlatformInstance: {
          urn: instance,
          type: 'DATA_PLATFORM_INSTANCE',
          instanceId: 'warehouse',
          platform: { urn: PLATFORM },
          properties: { name: 'Warehouse', customProperties: [{ key: 'region', value: 'eu' }] },
        },
      },
    });
  });
});
