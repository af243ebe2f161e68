import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { ingestSampleData } from './support/graphql-docs';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments } from './webui/ui-documents';
import { bootstrapPlaceholders, fillPlaceholders, readUiVariables } from './webui/ui-queries';
import { print } from 'graphql';

// The structured-property pages of DataHub's web UI (structuredProperties.graphql, with the variables its pages send)
// against a real mds over DataHub's bootstrap sample: define a property, assign and remove its value, change and
// delete it; each read back as DataHub's resolvers (CreateStructuredPropertyResolver, UpsertStructuredPropertiesResolver,
// RemoveStructuredPropertiesResolver, UpdateStructuredPropertyResolver, DeleteStructuredPropertyResolver) write it.
const { operations } = readUiDocuments();
const fixture = readUiVariables();
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const PROPERTY = 'urn:li:structuredProperty:retention';
const enc = encodeURIComponent;

let mds: Mds;
let editor: string;
let reader: string;
beforeAll(async () => {
  mds = await startMds();
  await ingestSampleData(mds);
  editor = await mds.tokenFor('urn:li:corpuser:eddie', 'urn:li:dataHubRole:Editor');
  reader = await mds.tokenFor('urn:li:corpuser:rita', 'urn:li:dataHubRole:Reader');
});
afterAll(() => mds?.close());

/**
 * What the UI's mutations select, where their shared fragments (structuredPropertyFields, structuredPropertiesFields)
 * also reach fields other parts of mds declare (CorpUser.info, Application.properties, SchemaFieldEntity.fieldPath …):
 * until those are declared (remaining-operations.txt lists the four), the mutation is sent with this selection.
 */
const SELECTIONS: Record<string, string> = {
  createStructuredProperty: `mutation ($input: CreateStructuredPropertyInput!) { createStructuredProperty(input: $input) { urn type
    definition { qualifiedName displayName description cardinality immutable entityTypes { urn info { type } } valueType { urn info { type } } }
    settings { isHidden showInSearchFilters showAsAssetBadge showInAssetSummary showInColumnsTable } } }`,
  updateStructuredProperty: `mutation ($input: UpdateStructuredPropertyInput!) { updateStructuredProperty(input: $input) { urn
    settings { isHidden showInSearchFilters showAsAssetBadge showInAssetSummary showInColumnsTable } } }`,
  upsertStructuredProperties: `mutation ($input: UpsertStructuredPropertiesInput!) { upsertStructuredProperties(input: $input) { properties {
    structuredProperty { urn definition { qualifiedName } } values { ... on StringValue { stringValue } ... on NumberValue { numberValue } }
    associatedUrn } } }`,
  removeStructuredProperties: `mutation ($input: RemoveStructuredPropertiesInput!) { removeStructuredProperties(input: $input) { properties {
    structuredProperty { urn } } } }`,
};

/** The UI's operation `name` with the variables its page sends (the property being the one the test defined). */
function ui(name: string, token = mds.rootToken, variables?: Record<string, unknown>) {
  const op = operations.find((o) => o.name === name)!;
  const calls = op.kind === 'query' ? fixture.queries[name]! : fixture.mutations[name]!;
  const values = { ...bootstrapPlaceholders().values, $STRUCTURED_PROPERTY_URN: PROPERTY };
  const sent = variables ?? (fillPlaceholders(calls[0]!.variables, values) as Record<string, unknown>);
  return mds.graphql(SELECTIONS[name] ?? print(op.document), sent, token);
}
const latest = async (urn: string, aspect: string) => {
  const read = await mds.clientFor(mds.rootToken).get(`/aspects/${enc(urn)}?aspect=${aspect}&version=0`);
  return read.status === 200 ? (read.body as { aspect: Record<string, Record<string, unknown>> }).aspect : undefined;
};

describe("the UI's structured-property pages", () => {
  it('createStructuredProperty from the drawer: refused to a Reader (an Editor holds MANAGE_STRUCTURED_PROPERTIES, as in DataHub), written for an admin, read back by getStructuredProperty and search', async () => {
    expect(graphqlError(await ui('createStructuredProperty', reader))).toEqual({
      message: 'Unable to create structured property. Please contact your admin.',
      code: 403,
    });
    const created = await ui('createStructuredProperty');
    expect(graphqlError(created)).toBeUndefined();
    expect(created.body.data.createStructuredProperty).toMatchObject({ urn: PROPERTY });

    const stored = await latest(PROPERTY, 'propertyDefinition');
    expect(stored?.['com.linkedin.structured.StructuredPropertyDefinition']).toMatchObject({
      qualifiedName: 'retention',
      displayName: 'Retention',
      description: 'How long rows are kept',
      valueType: 'urn:li:dataType:datahub.string',
      cardinality: 'SINGLE',
      entityTypes: ['urn:li:entityType:datahub.dataset'],
      immutable: false,
    });
    expect(stored?.['com.linkedin.structured.StructuredPropertyDefinition']).not.toHaveProperty('allowedValues');
    expect((await latest(PROPERTY, 'structuredPropertySettings'))?.['com.linkedin.structured.StructuredPropertySettings']).toMatchObject({
      isHidden: false,
      showInSearchFilters: true,
      showInAssetSummary: true,
      showAsAssetBadge: false,
      showInColumnsTable: false,
    });

    const page = await ui('getStructuredProperty');
    expect(graphqlError(page)).toBeUndefined();
    expect(page.body.data.entity).toMatchObject({
      urn: PROPERTY,
      type: 'STRUCTURED_PROPERTY',
      definition: {
        qualifiedName: 'retention',
        displayName: 'Retention',
        cardinality: 'SINGLE',
        entityTypes: [{ urn: 'urn:li:entityType:datahub.dataset', type: 'ENTITY_TYPE', info: { type: 'DATASET' } }],
        valueType: {
          urn: 'urn:li:dataType:datahub.string',
          info: { type: 'STRING', qualifiedName: 'datahub.string', displayName: 'String' },
        },
        allowedValues: null,
        typeQualifier: null,
      },
    });
    const found = await ui('searchStructuredProperties', mds.rootToken, { query: 'retention', start: 0, count: 10 });
    expect(graphqlError(found)).toBeUndefined();
    expect(found.body.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn)).toEqual([PROPERTY]);
    expect(graphqlError(await ui('searchStructuredProperties'))).toBeUndefined();
  });

  it("the Properties tab's edit modal sets a value (refused to a Reader), and its column removes it", async () => {
    expect(graphqlError(await ui('upsertStructuredProperties', reader))).toEqual({
      message: `Not authorized to update properties on the gives urn ${HIVE}`,
      code: 403,
    });
    const set = await ui('upsertStructuredProperties', editor);
    expect(graphqlError(set)).toBeUndefined();
    expect(set.body.data.upsertStructuredProperties.properties).toMatchObject([
      { structuredProperty: { urn: PROPERTY }, values: [{ stringValue: '90 days' }] },
    ]);
    expect((await latest(HIVE, 'structuredProperties'))?.['com.linkedin.structured.StructuredProperties']).toMatchObject({
      properties: [{ propertyUrn: PROPERTY, values: [{ string: '90 days' }], created: { actor: 'urn:li:corpuser:eddie' } }],
    });
    const read = await mds.graphql(
      `{ dataset(urn: "${HIVE}") { structuredProperties { properties { structuredProperty { urn } values { ... on StringValue { stringValue } } } } } }`,
    );
    expect(read.body.data.dataset.structuredProperties.properties).toEqual([
      { structuredProperty: { urn: PROPERTY }, values: [{ stringValue: '90 days' }] },
    ]);

    const removed = await ui('removeStructuredProperties', editor);
    expect(graphqlError(removed)).toBeUndefined();
    expect(removed.body.data.removeStructuredProperties.properties).toEqual([]);
    expect((await latest(HIVE, 'structuredProperties'))?.['com.linkedin.structured.StructuredProperties']).toEqual({ properties: [] });
  });

  it('display preferences update the settings; the table deletes the property', async () => {
    expect(graphqlError(await ui('updateStructuredProperty', reader))).toEqual({
      message: 'Unable to update structured property. Please contact your admin.',
      code: 403,
    });
    const hidden = await ui('updateStructuredProperty', mds.rootToken, { input: { urn: PROPERTY, settings: { showAsAssetBadge: true } } });
    expect(graphqlError(hidden)).toBeUndefined();
    expect(hidden.body.data.updateStructuredProperty.settings).toMatchObject({ showAsAssetBadge: true, showInSearchFilters: true });
    expect(graphqlError(await ui('updateStructuredProperty'))).toBeUndefined();
    expect((await latest(PROPERTY, 'structuredPropertySettings'))?.['com.linkedin.structured.StructuredPropertySettings']).toMatchObject({
      showAsAssetBadge: false,
    });

    expect(graphqlError(await ui('deleteStructuredProperty', reader))).toEqual({
      message: 'Unable to delete structured property. Please contact your admin.',
      code: 403,
    });
    expect((await ui('deleteStructuredProperty')).body).toEqual({ data: { deleteStructuredProperty: true } });
    expect(await latest(PROPERTY, 'propertyDefinition')).toBeUndefined();
    expect((await ui('getStructuredProperty')).body.data.entity).toBeNull();
  });
});
