import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, isEnumType, type ExecutionResult } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { schemaOf } from './schema';
import { createEntities, createEntityGraphql, SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const context: ApiContext = { actor: SYSTEM_ACTOR, requestId: 'test' };

// DataHub's DatasetMapper never sets platformNativeType: the field is declared (old clients ask it) and always null.
describe('Dataset.platformNativeType (deprecated), as DatasetMapper answers it', () => {
  it('is null for a dataset that has properties and subTypes, and its enum has DataHub values', async () => {
    const entities = await createEntities({ db: await databases.open() });
    const proposal = (aspectName: string, value: unknown) => ({
      proposal: { entityType: 'dataset', entityUrn: URN, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value) } },
      place: { action: 'test', path: 'p' },
    });
    await entities.service.ingest(
      SYSTEM_ACTOR,
      [proposal('datasetProperties', { name: 'Orders', customProperties: {} }), proposal('subTypes', { typeNames: ['View'] })],
      { batch: true },
    );
    const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search }));
    const result = (await graphql({
      schema,
      source: `{ dataset(urn: "${URN}") { name platformNativeType subTypes { typeNames } } }`,
      contextValue: context,
    })) as ExecutionResult<Record<string, any>>;
    expect(result.errors).toBeUndefined();
    expect(result.data?.dataset).toEqual({ name: 'Orders', platformNativeType: null, subTypes: { typeNames: ['View'] } });
    const enumType = schema.getType('PlatformNativeType');
    expect(isEnumType(enumType) && enumType.getValues().map((v) => v.name)).toEqual(['TABLE', 'VIEW', 'DIRECTORY', 'STREAM', 'BUCKET']);
  });
});
