import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const FIELD = `urn:li:schemaField:(${DATASET},customer_id)`;
const PROPERTY = 'urn:li:structuredProperty:io.acryl.dataManagement.certifier';

describe("SchemaFieldEntity, as DataHub's SchemaFieldMapper answers it", () => {
  it('answers its field path and parent from the urn and the aspects written on the field; structured properties create it', async () => {
    const { service, run, query } = await goldenGraphql(databases, ['example_structured_properties_golden.json']);
    const mcp = (entityType: string, entityUrn: string, aspectName: string, value: unknown) => ({
      proposal: { entityType, entityUrn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value) } },
      place: { action: 'test', path: aspectName },
    });
    await service.ingest(
      SYSTEM_ACTOR,
      [
        mcp('dataset', DATASET, 'status', { removed: false }),
        mcp('schemaField', FIELD, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
        mcp('schemaField', FIELD, 'documentation', { documentations: [{ documentation: 'Who ordered' }] }),
      ],
      { batch: false },
    );
    const fields = `urn type fieldPath parent { urn type } tags { tags { tag { urn } } } documentation { documentations { documentation } }
      status { removed } deprecation { deprecated } structuredProperties { properties { structuredProperty { urn } values { ... on StringValue { stringValue } } } }`;
    const data = await query(`{ entity(urn: "${FIELD}") { ... on SchemaFieldEntity { ${fields} } } }`);
    expect(data.entity).toEqual({
      urn: FIELD,
      type: 'SCHEMA_FIELD',
      fieldPath: 'customer_id',
      parent: { urn: DATASET, type: 'DATASET' },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:pii' } }] },
      documentation: { documentations: [{ documentation: 'Who ordered' }] },
      status: null,
      deprecation: null,
      structuredProperties: null,
    });

    // A value on a field no aspect was written for yet: DataHub's resolver lets it create the field's entity.
    const other = `urn:li:schemaField:(${DATASET},amount)`;
    const upsert = await run(`mutation { upsertStructuredProperties(input: { assetUrn: "${other}", structuredPropertyInputParams: [
      { structuredPropertyUrn: "${PROPERTY}", values: [{ stringValue: "urn:li:corpuser:jdoe" }] }] }) { properties { associatedUrn } } }`);
    expect(upsert.errors).toBeUndefined();
    const read = await run(
      `{ entity(urn: "${other}") { ... on SchemaFieldEntity { fieldPath structuredProperties { properties { structuredProperty { urn } } } } } }`,
      undefined,
      {
        context: { actor: SYSTEM_ACTOR, requestId: 'after' },
      },
    );
    expect(read.data).toEqual({
      entity: { fieldPath: 'amount', structuredProperties: { properties: [{ structuredProperty: { urn: PROPERTY } }] } },
    });
  });
});
