import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { goldenGraphql } from './golden';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const RETENTION = 'urn:li:structuredProperty:io.acryl.privacy.retentionTime';
const PROJECTS = 'urn:li:structuredProperty:projectNames';
const SLA = 'urn:li:structuredProperty:io.acryl.dataManagement.replicationSLA';
const STEWARD = 'urn:li:structuredProperty:io.acryl.dataManagement.steward';
const NOW = 1_700_000_000_000;

const as = (urn: string, ...privileges: Privilege[]): { context: ApiContext } => ({
  context: { actor: { urn, privileges: new Set([Privilege.VIEW_ENTITY_PAGE, ...privileges]) }, requestId: 'test' },
});
const editor = as('urn:li:corpuser:eddie', Privilege.EDIT_ENTITY);
const reader = as('urn:li:corpuser:rita');

/** DataHub's example structured properties (golden file), and a dataset to assign them to. */
async function setup() {
  const api = await goldenGraphql(databases, ['example_structured_properties_golden.json'], { now: () => NOW });
  await api.service.ingest(
    SYSTEM_ACTOR,
    [
      {
        proposal: {
          entityType: 'dataset',
          entityUrn: DATASET,
          changeType: 'UPSERT',
          aspectName: 'status',
          aspect: { value: '{"removed":false}' },
        },
        place: { action: 'test', path: 'status' },
      },
    ],
    { batch: false },
  );
  const stored = async (urn: string, aspect: string) => (await api.store.latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  const errorOf = (result: { errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }) =>
    result.errors?.map((e) => ({ message: e.message, code: e.extensions?.code }));
  return { ...api, stored, errorOf };
}

// The fields the UI's getStructuredProperty and structuredPropertyFields ask for.
const DEFINITION = `definition { qualifiedName displayName description cardinality immutable
  entityTypes { urn type info { type qualifiedName displayName } }
  valueType { urn type info { type qualifiedName displayName description } }
  allowedValues { value { ... on StringValue { stringValue } ... on NumberValue { numberValue } } description }
  typeQualifier { allowedTypes { urn type info { type } } }
  created { time actor { urn } } lastModified { time actor { urn } } }
  settings { isHidden showInSearchFilters showAsAssetBadge showInAssetSummary showInColumnsTable }`;
const VALUES = `properties { associatedUrn structuredProperty { urn exists definition { qualifiedName } }
  values { ... on StringValue { stringValue } ... on NumberValue { numberValue } } valueEntities { urn type } }`;

describe("Structured properties, as DataHub's StructuredPropertyMapper and structuredproperties resolvers answer them", () => {
  it('a stored definition (propertyDefinition) through structuredProperty(urn:) and entity(urn:), with its data and entity types', async () => {
    const { query } = await setup();
    const data = await query(`{ structuredProperty(urn: "${STEWARD}") { urn type exists ${DEFINITION} }
      entity(urn: "${RETENTION}") { urn type ... on StructuredPropertyEntity { definition { valueType { info { type } } allowedValues { value { ... on NumberValue { numberValue } } } } } }
      other: structuredProperty(urn: "${DATASET}") { urn } }`);
    expect(data.structuredProperty).toMatchObject({
      urn: STEWARD,
      type: 'STRUCTURED_PROPERTY',
      exists: true,
      definition: {
        qualifiedName: 'io.acryl.dataManagement.steward',
        displayName: 'Steward',
        cardinality: 'SINGLE',
        valueType: {
          urn: 'urn:li:dataType:datahub.urn',
          type: 'DATA_TYPE',
          info: {
            type: 'URN',
            qualifiedName: 'datahub.urn',
            displayName: 'Urn',
            description: 'An unique identifier for a DataHub entity.',
          },
        },
        typeQualifier: {
          allowedTypes: [
            { urn: 'urn:li:entityType:datahub.corpuser', type: 'ENTITY_TYPE', info: { type: 'CORP_USER' } },
            { urn: 'urn:li:entityType:datahub.corpGroup', type: 'ENTITY_TYPE', info: { type: 'CORP_GROUP' } },
          ],
        },
        allowedValues: null,
      },
      settings: null,
    });
    expect(data.structuredProperty.definition.entityTypes[0]).toEqual({
      urn: 'urn:li:entityType:datahub.dataset',
      type: 'ENTITY_TYPE',
      info: { type: 'DATASET', qualifiedName: 'datahub.dataset', displayName: 'dataset' },
    });
    expect(data.entity.definition.valueType.info.type).toBe('NUMBER');
    expect(data.entity.definition.allowedValues.map((a: { value: { numberValue: number } }) => a.value.numberValue)).toEqual([30, 90, 365]);
    expect(data.other).toBeNull();
  });

  it('createStructuredProperty (CreateStructuredPropertyResolver) writes propertyDefinition and structuredPropertySettings; updateStructuredProperty only widens', async () => {
    const { run, query, stored, errorOf } = await setup();
    const create = await run(
      `mutation createStructuredProperty($input: CreateStructuredPropertyInput!) { createStructuredProperty(input: $input) { urn ${DEFINITION} } }`,
      {
        input: {
          qualifiedName: 'io.mds.tier',
          displayName: 'Tier',
          description: 'How critical',
          valueType: 'urn:li:dataType:datahub.string',
          entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'],
          cardinality: 'SINGLE',
          allowedValues: [{ stringValue: 'gold', description: 'top' }, { stringValue: 'silver' }],
          settings: { showInSearchFilters: true, showAsAssetBadge: true },
        },
      },
    );
    expect(create.errors).toBeUndefined();
    const urn = 'urn:li:structuredProperty:io.mds.tier';
    expect(create.data!.createStructuredProperty).toMatchObject({
      urn,
      definition: {
        qualifiedName: 'io.mds.tier',
        immutable: false,
        allowedValues: [
          { value: { stringValue: 'gold' }, description: 'top' },
          { value: { stringValue: 'silver' }, description: null },
        ],
        created: { time: NOW, actor: { urn: SYSTEM_ACTOR.urn } },
      },
      settings: {
        isHidden: false,
        showInSearchFilters: true,
        showAsAssetBadge: true,
        showInAssetSummary: false,
        showInColumnsTable: false,
      },
    });
    expect(await stored(urn, 'propertyDefinition')).toMatchObject({
      qualifiedName: 'io.mds.tier',
      valueType: 'urn:li:dataType:datahub.string',
      entityTypes: ['urn:li:entityType:datahub.dataset', 'urn:li:entityType:datahub.chart'],
      cardinality: 'SINGLE',
      allowedValues: [{ value: { string: 'gold' }, description: 'top' }, { value: { string: 'silver' } }],
    });
    expect(
      errorOf(
        await run(
          `mutation { createStructuredProperty(input: { id: "io.mds.tier", valueType: "urn:li:dataType:datahub.string", entityTypes: [] }) { urn } }`,
        ),
      ),
    ).toEqual([{ message: 'A structured property already exists with this urn', code: 400 }]);
    expect(
      errorOf(
        await run(
          `mutation { createStructuredProperty(input: { id: "a", qualifiedName: "b", valueType: "urn:li:dataType:datahub.string", entityTypes: [] }) { urn } }`,
        ),
      ),
    ).toEqual([{ message: 'Qualified name and the ID of a structured property must match', code: 400 }]);
    expect(
      errorOf(
        await run(`mutation { createStructuredProperty(input: { id: "h", valueType: "urn:li:dataType:datahub.string", entityTypes: [],
          settings: { isHidden: true, showAsAssetBadge: true } }) { urn } }`),
      ),
    ).toEqual([{ message: 'Cannot have property isHidden = true while other display location settings are also true.', code: 400 }]);
    expect((await query(`{ structuredProperty(urn: "urn:li:structuredProperty:h") { urn } }`)).structuredProperty).toBeNull();

    const update = await run(
      `mutation updateStructuredProperty($input: UpdateStructuredPropertyInput!) { updateStructuredProperty(input: $input) { urn ${DEFINITION} } }`,
      {
        input: {
          urn,
          displayName: 'Service tier',
          newAllowedValues: [{ stringValue: 'bronze' }, { stringValue: 'gold' }],
          newEntityTypes: ['urn:li:entityType:datahub.chart', 'urn:li:entityType:datahub.dashboard'],
          setCardinalityAsMultiple: true,
          settings: { showAsAssetBadge: false },
        },
      },
      { context: { actor: SYSTEM_ACTOR, requestId: 'update' } }, // its own request, as a server gives each
    );
    expect(update.errors).toBeUndefined();
    const updated = update.data!.updateStructuredProperty;
    expect(updated.definition).toMatchObject({ displayName: 'Service tier', cardinality: 'MULTIPLE', description: 'How critical' });
    expect(updated.definition.allowedValues.map((a: { value: { stringValue: string } }) => a.value.stringValue)).toEqual([
      'gold',
      'silver',
      'bronze',
    ]);
    expect(updated.definition.entityTypes.map((t: { urn: string }) => t.urn)).toEqual([
      'urn:li:entityType:datahub.dataset',
      'urn:li:entityType:datahub.chart',
      'urn:li:entityType:datahub.dashboard',
    ]);
    expect(updated.settings).toMatchObject({ showInSearchFilters: true, showAsAssetBadge: false });
  });

  it('upsertStructuredProperties / removeStructuredProperties (their resolvers) write the structuredProperties aspect, values checked against the definition', async () => {
    const { run, query, stored, errorOf } = await setup();
    const upsert = (params: unknown[], options = editor) =>
      run(
        `mutation upsertStructuredProperties($input: UpsertStructuredPropertiesInput!) { upsertStructuredProperties(input: $input) { ${VALUES} } }`,
        { input: { assetUrn: DATASET, structuredPropertyInputParams: params } },
        options,
      );
    const first = await upsert([
      { structuredPropertyUrn: RETENTION, values: [{ numberValue: 90 }] },
      { structuredPropertyUrn: STEWARD, values: [{ stringValue: 'urn:li:corpuser:jdoe' }] },
    ]);
    expect(first.errors).toBeUndefined();
    expect(first.data!.upsertStructuredProperties.properties).toEqual([
      {
        associatedUrn: DATASET,
        structuredProperty: { urn: RETENTION, exists: true, definition: { qualifiedName: 'io.acryl.privacy.retentionTime' } },
        values: [{ numberValue: 90 }],
        valueEntities: [],
      },
      {
        associatedUrn: DATASET,
        structuredProperty: { urn: STEWARD, exists: true, definition: { qualifiedName: 'io.acryl.dataManagement.steward' } },
        values: [{ stringValue: 'urn:li:corpuser:jdoe' }],
        valueEntities: [{ urn: 'urn:li:corpuser:jdoe', type: 'CORP_USER' }],
      },
    ]);
    expect(await stored(DATASET, 'structuredProperties')).toEqual({
      properties: [
        {
          propertyUrn: RETENTION,
          values: [{ double: 90 }],
          created: { time: NOW, actor: 'urn:li:corpuser:eddie' },
          lastModified: { time: NOW, actor: 'urn:li:corpuser:eddie' },
        },
        {
          propertyUrn: STEWARD,
          values: [{ string: 'urn:li:corpuser:jdoe' }],
          created: { time: NOW, actor: 'urn:li:corpuser:eddie' },
          lastModified: { time: NOW, actor: 'urn:li:corpuser:eddie' },
        },
      ],
    });

    // Replacing one property's values keeps the other; the entity's field reads the same aspect.
    expect((await upsert([{ structuredPropertyUrn: RETENTION, values: [{ numberValue: 365 }] }])).errors).toBeUndefined();
    const read = await query(`{ dataset(urn: "${DATASET}") { structuredProperties { ${VALUES} } } }`);
    expect(read.dataset.structuredProperties.properties.map((p: { values: unknown[] }) => p.values)).toEqual([
      [{ numberValue: 365 }],
      [{ stringValue: 'urn:li:corpuser:jdoe' }],
    ]);

    // What DataHub's validator refuses, with its texts; nothing is written.
    const before = await stored(DATASET, 'structuredProperties');
    const refusals: [unknown[], string][] = [
      [
        [{ structuredPropertyUrn: RETENTION, values: [{ numberValue: 7 }] }],
        `Property: ${RETENTION}, value: {"double":7} should be one of [{"double":30},{"double":90},{"double":365}]`,
      ],
      [
        [{ structuredPropertyUrn: SLA, values: [{ numberValue: 30 }, { numberValue: 90 }] }],
        `Property: ${SLA} has cardinality 1, but multiple values were assigned: {"double":30}, {"double":90}`,
      ],
      [
        [{ structuredPropertyUrn: SLA, values: [{ stringValue: 'soon' }] }],
        `Property: ${SLA}, value: {"string":"soon"} should be a number`,
      ],
      [
        [{ structuredPropertyUrn: STEWARD, values: [{ stringValue: 'urn:li:tag:pii' }] }],
        `Property: ${STEWARD}, value: {"string":"urn:li:tag:pii"} is not of any supported urn types:["urn:li:entityType:datahub.corpuser","urn:li:entityType:datahub.corpGroup"]`,
      ],
      [[{ structuredPropertyUrn: STEWARD, values: [{ numberValue: 3 }] }], `Property: ${STEWARD}, value: {"double":3} should be a string`],
      [
        [{ structuredPropertyUrn: PROJECTS, values: [{ stringValue: 'Other' }] }],
        `Property: ${PROJECTS}, value: {"string":"Other"} should be one of [{"string":"Tracking"},{"string":"DataHub"}]`,
      ],
      [
        [{ structuredPropertyUrn: 'urn:li:structuredProperty:nope', values: [{ stringValue: 'x' }] }],
        'Unexpected null value found for urn:li:structuredProperty:nope Structured Property Definition.',
      ],
    ];
    for (const [params, message] of refusals) expect(errorOf(await upsert(params))).toEqual([{ message, code: 400 }]);
    expect(errorOf(await upsert([{ structuredPropertyUrn: RETENTION, values: [{ numberValue: 30 }] }], reader))).toEqual([
      { message: `Not authorized to update properties on the gives urn ${DATASET}`, code: 403 },
    ]);
    expect(await stored(DATASET, 'structuredProperties')).toEqual(before);
    expect(
      errorOf(
        await run(
          `mutation { upsertStructuredProperties(input: { assetUrn: "urn:li:dataset:(urn:li:dataPlatform:hive,absent,PROD)", structuredPropertyInputParams: [] }) { properties { associatedUrn } } }`,
        ),
      ),
    ).toEqual([{ message: 'Asset with provided urn urn:li:dataset:(urn:li:dataPlatform:hive,absent,PROD) does not exist', code: 404 }]);

    const remove = await run(
      `mutation removeStructuredProperties($input: RemoveStructuredPropertiesInput!) { removeStructuredProperties(input: $input) { ${VALUES} } }`,
      { input: { assetUrn: DATASET, structuredPropertyUrns: [RETENTION] } },
      editor,
    );
    expect(remove.errors).toBeUndefined();
    expect(
      remove.data!.removeStructuredProperties.properties.map((p: { structuredProperty: { urn: string } }) => p.structuredProperty.urn),
    ).toEqual([STEWARD]);
    expect((await stored(DATASET, 'structuredProperties'))!.properties).toHaveLength(1);
  });

  it("a property's values are searchable and facetable (structuredProperties.<qualified name>); includeStructuredPropertyFacets adds those shown in filters", async () => {
    const { run, query, service } = await setup();
    const set = await run(`mutation { upsertStructuredProperties(input: { assetUrn: "${DATASET}", structuredPropertyInputParams: [
      { structuredPropertyUrn: "${RETENTION}", values: [{ numberValue: 90 }] }] }) { properties { associatedUrn } } }`);
    expect(set.errors).toBeUndefined();
    const FIELD = 'structuredProperties.io.acryl.privacy.retentionTime';
    const found = async (value: string) =>
      (
        await query(`{ searchAcrossEntities(input: { query: "*", orFilters: [{ and: [{ field: "${FIELD}", values: ["${value}"] }] }] }) {
          searchResults { entity { urn } } } }`)
      ).searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn);
    expect(await found('90')).toEqual([DATASET]);
    expect(await found('30')).toEqual([]);
    const facetsOf = async (flags: string) =>
      (
        await query(`{ searchAcrossEntities(input: { query: "*", types: [DATASET], searchFlags: { ${flags} } }) {
          facets { field entity { urn } aggregations { value count } } } }`)
      ).searchAcrossEntities.facets as { field: string; entity: { urn: string } | null; aggregations: unknown[] }[];
    // Not shown in search filters yet: only the defaults, even when asked.
    expect((await facetsOf('includeStructuredPropertyFacets: true')).some((f) => f.field === FIELD)).toBe(false);
    await service.ingest(
      SYSTEM_ACTOR,
      [
        {
          proposal: {
            entityType: 'structuredProperty',
            entityUrn: RETENTION,
            changeType: 'UPSERT',
            aspectName: 'structuredPropertySettings',
            aspect: { value: JSON.stringify({ showInSearchFilters: true }) },
          },
          place: { action: 'test', path: 'settings' },
        },
      ],
      { batch: false },
    );
    expect((await facetsOf('includeStructuredPropertyFacets: true')).find((f) => f.field === FIELD)).toEqual({
      field: FIELD,
      entity: { urn: RETENTION },
      aggregations: [{ value: '90', count: 1 }],
    });
    expect((await facetsOf('includeStructuredPropertyFacets: false')).some((f) => f.field === FIELD)).toBe(false);
    // Asked by name, as aggregateAcrossEntities does.
    const asked = await query(
      `{ aggregateAcrossEntities(input: { query: "*", facets: ["${FIELD}"] }) { facets { field entity { urn } aggregations { value count } } } }`,
    );
    expect(asked.aggregateAcrossEntities.facets).toEqual([
      { field: FIELD, entity: { urn: RETENTION }, aggregations: [{ value: '90', count: 1 }] },
    ]);
  });

  it('an immutable property keeps its value once set', async () => {
    const { run, errorOf } = await setup();
    const create = await run(`mutation { createStructuredProperty(input: { id: "fixed", valueType: "urn:li:dataType:datahub.date",
      entityTypes: ["urn:li:entityType:datahub.dataset"], immutable: true }) { urn } }`);
    expect(create.errors).toBeUndefined();
    const set = (value: string) =>
      run(`mutation { upsertStructuredProperties(input: { assetUrn: "${DATASET}", structuredPropertyInputParams: [
        { structuredPropertyUrn: "urn:li:structuredProperty:fixed", values: [{ stringValue: "${value}" }] }] }) { properties { associatedUrn } } }`);
    expect(errorOf(await set('31/12/2024'))).toEqual([
      {
        message: 'Property: urn:li:structuredProperty:fixed, value: {"string":"31/12/2024"} should be a date with format YYYY-MM-DD',
        code: 400,
      },
    ]);
    expect((await set('2024-12-31')).errors).toBeUndefined();
    expect(errorOf(await set('2025-01-01'))).toEqual([
      { message: 'Cannot mutate an immutable property: urn:li:structuredProperty:fixed', code: 400 },
    ]);
    const remove = await run(
      `mutation { removeStructuredProperties(input: { assetUrn: "${DATASET}", structuredPropertyUrns: ["urn:li:structuredProperty:fixed"] }) { properties { associatedUrn } } }`,
    );
    expect(errorOf(remove)).toEqual([{ message: 'Cannot delete an immutable property urn:li:structuredProperty:fixed', code: 400 }]);
  });

  it('defining, changing and deleting need MANAGE_STRUCTURED_PROPERTIES (DataHub’s texts); deleteStructuredProperty removes the definition', async () => {
    const { run, query, errorOf } = await setup();
    const admin = as('urn:li:corpuser:ada', Privilege.MANAGE_STRUCTURED_PROPERTIES);
    const createInput = `{ id: "owned", valueType: "urn:li:dataType:datahub.string", entityTypes: ["urn:li:entityType:datahub.dataset"] }`;
    expect(errorOf(await run(`mutation { createStructuredProperty(input: ${createInput}) { urn } }`, undefined, editor))).toEqual([
      { message: 'Unable to create structured property. Please contact your admin.', code: 403 },
    ]);
    expect((await run(`mutation { createStructuredProperty(input: ${createInput}) { urn } }`, undefined, admin)).errors).toBeUndefined();
    expect(
      errorOf(
        await run(`mutation { updateStructuredProperty(input: { urn: "${RETENTION}", displayName: "x" }) { urn } }`, undefined, editor),
      ),
    ).toEqual([{ message: 'Unable to update structured property. Please contact your admin.', code: 403 }]);
    expect(errorOf(await run(`mutation { deleteStructuredProperty(input: { urn: "${RETENTION}" }) }`, undefined, editor))).toEqual([
      { message: 'Unable to delete structured property. Please contact your admin.', code: 403 },
    ]);
    expect((await query(`{ structuredProperty(urn: "${RETENTION}") { urn } }`)).structuredProperty).toEqual({ urn: RETENTION });
    const deleted = await run(
      `mutation deleteStructuredProperty($input: DeleteStructuredPropertyInput!) { deleteStructuredProperty(input: $input) }`,
      { input: { urn: RETENTION } },
      admin,
    );
    expect(deleted.data).toEqual({ deleteStructuredProperty: true });
    // A fresh request: the earlier one's reads are not reused.
    const after = await run(`{ structuredProperty(urn: "${RETENTION}") { urn } }`, undefined, as('urn:li:corpuser:ada'));
    expect(after.data).toEqual({ structuredProperty: null });
  });
});
