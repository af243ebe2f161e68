import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { graphql, type ExecutionResult } from 'graphql';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { schemaOf } from './schema';
import { createEntities, createEntityGraphql, SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const NAMED = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const UNNAMED = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)';
const context: ApiContext = { actor: SYSTEM_ACTOR, requestId: 'test' };

describe("GraphQL names, as DataHub's mappers give them", () => {
  it('Dataset.name is datasetProperties.name when set, else the name in its key; properties.name the same', async () => {
    const entities = await createEntities({ db: await databases.open() });
    const proposal = (urn: string, value: unknown) => ({
      proposal: {
        entityType: 'dataset',
        entityUrn: urn,
        changeType: 'UPSERT',
        aspectName: 'datasetProperties',
        aspect: { value: JSON.stringify(value) },
      },
      place: { action: 'test', path: 'p' },
    });
    await entities.service.ingest(
      SYSTEM_ACTOR,
      [proposal(NAMED, { name: 'Orders', customProperties: {} }), proposal(UNNAMED, { customProperties: {} })],
      {
        batch: true,
      },
    );
    const schema = schemaOf(createEntityGraphql({ service: entities.service, search: entities.search }));
    const read = async (urn: string) =>
      (
        (await graphql({
          schema,
          source: `{ dataset(urn: "${urn}") { name properties { name } } }`,
          contextValue: context,
        })) as ExecutionResult<Record<string, any>>
      ).data?.dataset;
    expect(await read(NAMED)).toEqual({ name: 'Orders', properties: { name: 'Orders' } });
    expect(await read(UNNAMED)).toEqual({ name: 'db.customers', properties: { name: 'db.customers' } });
    // Search results answer the same name.
    const found = await graphql({
      schema,
      source: '{ searchAcrossEntities(input: { types: [DATASET], query: "*" }) { searchResults { entity { ... on Dataset { name } } } } }',
      contextValue: context,
    });
    expect((found.data as any).searchAcrossEntities.searchResults.map((r: any) => r.entity.name).sort()).toEqual([
      'Orders',
      'db.customers',
    ]);
  });
});
