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
  it("is each SchemaField's schemaFieldEntity, its path escaped as DataHub's SchemaFieldUtils escapes it", async () => {
    const { service, query } = await goldenGraphql(databases, []);
    const schema = {
      schemaName: 'orders',
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields: [
        {
          fieldPath: 'customer_id',
          nullable: false,
          type: { type: { 'com.linkedin.schema.StringType': {} } },
          nativeDataType: 'string',
          recursive: false,
        },
        {
          fieldPath: 'pair(a,b)',
          nullable: true,
          type: { type: { 'com.linkedin.schema.StringType': {} } },
          nativeDataType: 'string',
          recursive: false,
        },
      ],
    };
    await service.ingest(
      SYSTEM_ACTOR,
      [
        {
          proposal: {
            entityType: 'dataset',
            entityUrn: DATASET,
            changeType: 'UPSERT',
            aspectName: 'schemaMetadata',
            aspect: { value: JSON.stringify(schema) },
          },
          place: { action: 'test', path: 'schemaMetadata' },
        },
      ],
      { batch: false },
    );
    const data = await query(
      `{ dataset(urn: "${DATASET}") { schemaMetadata { fields { fieldPath schemaFieldEntity { urn type fieldPath } } } } }`,
    );
    expect(data.dataset.schemaMetadata.fields).toEqual([
      { fieldPath: 'customer_id', schemaFieldEntity: { urn: FIELD, type: 'SCHEMA_FIELD', fieldPath: 'customer_id' } },
      {
        fieldPath: 'pair(a,b)',
        schemaFieldEntity: { urn: `urn:li:schemaField:(${DATASET},pair%28a%2Cb%29)`, type: 'SCHEMA_FIELD', fieldPath: 'pair%28a%2Cb%29' },
      },
    ]);
  });
});
