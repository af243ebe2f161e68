import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// Deprecation, domains and soft delete over GraphQL (entities-api §10), read back over Rest.li and GraphQL.
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const PEOPLE = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.people,PROD)';
const ABSENT = 'urn:li:dataset:(urn:li:dataPlatform:hive,never,PROD)';
const MARKETING = 'urn:li:domain:marketing';

let mds: Mds;
let reader: string;
const upsert = (entityType: string, urn: string, aspectName: string, value: unknown) =>
  mds.post('/aspects?action=ingestProposal', {
    proposal: {
      entityType,
      entityUrn: urn,
      changeType: 'UPSERT',
      aspectName,
      aspect: { contentType: 'application/json', value: JSON.stringify(value) },
    },
  });
const aspect = async (urn: string, name: string) => (await mds.domains.entities.store.get(urn, name))?.value;

beforeAll(async () => {
  mds = await startMds();
  reader = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
  await upsert('dataset', ORDERS, 'datasetProperties', { name: 'orders', customProperties: {} });
  await upsert('dataset', USERS, 'datasetProperties', { name: 'users', customProperties: {} });
  // As DataHub's test_domains.json writes a domain.
  await upsert('domain', MARKETING, 'domainProperties', { name: 'Marketing', description: 'Marketing domain' });
});
afterAll(() => mds?.close());

describe('deprecation', () => {
  it('updateDeprecation replaces the aspect, actor the caller, note "" when null, no decommissionTime when null', async () => {
    const set = (input: Record<string, unknown>) =>
      mds.graphql(`mutation ($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }`, { input });
    expect((await set({ urn: ORDERS, deprecated: true, decommissionTime: 1_800_000_000_000, note: 'use db.orders_v2' })).body).toEqual({
      data: { updateDeprecation: true },
    });
    expect(await aspect(ORDERS, 'deprecation')).toEqual({
      deprecated: true,
      note: 'use db.orders_v2',
      actor: 'urn:li:corpuser:datahub',
      decommissionTime: 1_800_000_000_000,
    });
    await set({ urn: ORDERS, deprecated: false });
    expect(await aspect(ORDERS, 'deprecation')).toEqual({ deprecated: false, note: '', actor: 'urn:li:corpuser:datahub' });
    const { body } = await mds.graphql(`query { dataset(urn: "${ORDERS}") { deprecation { deprecated note actor decommissionTime } } }`);
    expect(body.data.dataset.deprecation).toEqual({
      deprecated: false,
      note: '',
      actor: 'urn:li:corpuser:datahub',
      decommissionTime: null,
    });
    expect(graphqlError(await set({ urn: ABSENT, deprecated: true }))).toEqual({
      message: `Failed to update deprecation for Entity ${ABSENT}. Entity does not exist.`,
      code: 400,
    });
  });

  it('batchUpdateDeprecation writes every resource or none (T3)', async () => {
    const batch = (resources: string[]) =>
      mds.graphql(`mutation ($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }`, {
        input: { deprecated: true, note: 'old', resources: resources.map((resourceUrn) => ({ resourceUrn })) },
      });
    expect(graphqlError(await batch([USERS, ABSENT]))).toEqual({
      message: `Failed to update resource with urn ${ABSENT}. Entity does not exist.`,
      code: 400,
    });
    expect(await aspect(USERS, 'deprecation')).toBeUndefined();
    await batch([USERS, ORDERS]);
    expect(await aspect(USERS, 'deprecation')).toMatchObject({ deprecated: true, note: 'old' });
    expect(await aspect(ORDERS, 'deprecation')).toMatchObject({ deprecated: true, note: 'old' });
  });

  it('a replacement is written and read back as an entity; leaving it out removes it (UpdateDeprecationResolver)', async () => {
    const set = (input: Record<string, unknown>) =>
      mds.graphql(`mutation ($input: UpdateDeprecationInput!) { updateDeprecation(input: $input) }`, { input });
    expect((await set({ urn: ORDERS, deprecated: true, note: 'moved', replacement: USERS })).body).toEqual({
      data: { updateDeprecation: true },
    });
    expect(await aspect(ORDERS, 'deprecation')).toEqual({
      deprecated: true,
      note: 'moved',
      actor: 'urn:li:corpuser:datahub',
      replacement: USERS,
    });
    const read = async () =>
      (await mds.graphql(`query { dataset(urn: "${ORDERS}") { deprecation { replacement { urn type } } } }`)).body.data.dataset.deprecation;
    expect(await read()).toEqual({ replacement: { urn: USERS, type: 'DATASET' } });
    // DataHub's resolver ignores subResource on this mutation: the entity's own deprecation is set.
    await set({ urn: ORDERS, deprecated: true, note: 'kept', subResourceType: 'DATASET_FIELD', subResource: 'id' });
    expect(await aspect(ORDERS, 'deprecation')).toEqual({ deprecated: true, note: 'kept', actor: 'urn:li:corpuser:datahub' });
    expect(await read()).toEqual({ replacement: null });
    expect(graphqlError(await set({ urn: ORDERS, deprecated: true, replacement: 'not-a-urn' }))?.code).toBe(422);
    expect(await aspect(ORDERS, 'deprecation')).toMatchObject({ note: 'kept' });
  });

  it('batchUpdateDeprecation writes the replacement, and a field resource deprecates its schemaField (DeprecationUtils)', async () => {
    await upsert('dataset', PEOPLE, 'datasetProperties', { name: 'people', customProperties: {} });
    await upsert('dataset', PEOPLE, 'schemaMetadata', {
      schemaName: 'users',
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields: [{ fieldPath: 'email', nativeDataType: 'string', type: { type: { 'com.linkedin.schema.StringType': {} } } }],
    });
    const batch = (resources: Record<string, unknown>[]) =>
      mds.graphql(`mutation ($input: BatchUpdateDeprecationInput!) { batchUpdateDeprecation(input: $input) }`, {
        input: { deprecated: true, note: 'gone', replacement: ORDERS, resources },
      });
    const field = { resourceUrn: PEOPLE, subResourceType: 'DATASET_FIELD' };
    expect((await batch([{ ...field, subResource: 'email' }])).body).toEqual({ data: { batchUpdateDeprecation: true } });
    const fieldUrn = `urn:li:schemaField:(${PEOPLE},email)`;
    expect(await aspect(fieldUrn, 'deprecation')).toEqual({
      deprecated: true,
      note: 'gone',
      actor: 'urn:li:corpuser:datahub',
      replacement: ORDERS,
    });
    expect(await aspect(PEOPLE, 'deprecation')).toBeUndefined();
    expect(graphqlError(await batch([{ ...field, subResource: 'phone' }]))).toEqual({
      message: `Failed to update ${PEOPLE} & field phone. Field phone does not exist in the datasets schema.`,
      code: 400,
    });
    expect(await aspect(`urn:li:schemaField:(${PEOPLE},phone)`, 'deprecation')).toBeUndefined();
  });
});

describe('domains', () => {
  it('setDomain, unsetDomain and batchSetDomain write domains; GraphQL shows the domain with its properties', async () => {
    expect((await mds.graphql(`mutation { setDomain(entityUrn: "${ORDERS}", domainUrn: "${MARKETING}") }`)).body).toEqual({
      data: { setDomain: true },
    });
    expect(await aspect(ORDERS, 'domains')).toEqual({ domains: [MARKETING] });
    const { body } = await mds.graphql(
      `query { dataset(urn: "${ORDERS}") { domain { domain { urn id properties { name } } associatedUrn } } }`,
    );
    expect(body.data.dataset.domain).toEqual({
      domain: { urn: MARKETING, id: 'marketing', properties: { name: 'Marketing' } },
      associatedUrn: ORDERS,
    });
    await mds.graphql(`mutation { unsetDomain(entityUrn: "${ORDERS}") }`);
    expect(await aspect(ORDERS, 'domains')).toEqual({ domains: [] });
    const batch = (domainUrn: string | null) =>
      mds.graphql(`mutation ($input: BatchSetDomainInput!) { batchSetDomain(input: $input) }`, {
        input: { domainUrn, resources: [{ resourceUrn: ORDERS }, { resourceUrn: USERS }] },
      });
    await batch(MARKETING);
    expect([await aspect(ORDERS, 'domains'), await aspect(USERS, 'domains')]).toEqual([{ domains: [MARKETING] }, { domains: [MARKETING] }]);
    await batch(null);
    expect(await aspect(USERS, 'domains')).toEqual({ domains: [] });
  });

  it('refuses absent domains and entities with DataHub’s texts, and a Reader with the reference 403', async () => {
    const nowhere = 'urn:li:domain:nowhere';
    expect(graphqlError(await mds.graphql(`mutation { setDomain(entityUrn: "${ORDERS}", domainUrn: "${nowhere}") }`))).toEqual({
      message: `Failed to add Entity ${ORDERS} to Domain ${nowhere}. Domain does not exist.`,
      code: 400,
    });
    expect(graphqlError(await mds.graphql(`mutation { setDomain(entityUrn: "${ABSENT}", domainUrn: "${MARKETING}") }`))).toEqual({
      message: `Failed to add Entity ${ABSENT} to Domain ${MARKETING}. Entity does not exist.`,
      code: 400,
    });
    expect(graphqlError(await mds.graphql(`mutation { unsetDomain(entityUrn: "${ABSENT}") }`))).toEqual({
      message: `Failed to unset Domain for Entity ${ABSENT}. Entity does not exist.`,
      code: 400,
    });
    const batch = await mds.graphql(
      `mutation { batchSetDomain(input: { domainUrn: "${nowhere}", resources: [{ resourceUrn: "${ORDERS}" }] }) }`,
    );
    expect(graphqlError(batch)).toEqual({ message: `Failed to validate Domain with urn ${nowhere}. Urn does not exist.`, code: 400 });
    const refused = await mds.graphql(`mutation { setDomain(entityUrn: "${ORDERS}", domainUrn: "${MARKETING}") }`, {}, reader);
    expect(graphqlError(refused)).toEqual({
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      code: 403,
    });
  });
});

describe('batchUpdateSoftDeleted', () => {
  it('sets status.removed on every urn, hiding them from search, and back; an absent urn refuses all', async () => {
    const soft = (urns: string[], deleted: boolean) =>
      mds.graphql(`mutation ($input: BatchUpdateSoftDeletedInput!) { batchUpdateSoftDeleted(input: $input) }`, {
        input: { urns, deleted },
      });
    const found = async () =>
      (
        await mds.graphql(`query { searchAcrossEntities(input: { types: [DATASET], query: "*" }) { searchResults { entity { urn } } } }`)
      ).body.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn);
    expect(graphqlError(await soft([USERS, ABSENT], true))).toEqual({
      message: `Failed to soft delete entity with urn ${ABSENT}. Entity does not exist.`,
      code: 400,
    });
    expect(await aspect(USERS, 'status')).toBeUndefined();
    await soft([USERS], true);
    expect(await aspect(USERS, 'status')).toEqual({ removed: true });
    expect(await found()).not.toContain(USERS);
    await soft([USERS], false);
    expect(await found()).toContain(USERS);
  });
});

describe('updateDescription', () => {
  const DESCRIBE = `mutation ($input: DescriptionUpdateInput!) { updateDescription(input: $input) }`;
  const describe_ = (input: Record<string, unknown>, token?: string) =>
    mds.graphql(DESCRIBE, { input: { description: 'Words', ...input } }, token);

  it('writes a dataset’s editableDatasetProperties (keeping its other fields), a field’s editableSchemaMetadata entry, a domain’s properties', async () => {
    await upsert('dataset', ORDERS, 'editableDatasetProperties', { name: 'Orders' });
    expect((await describe_({ resourceUrn: ORDERS })).body).toEqual({ data: { updateDescription: true } });
    expect(await aspect(ORDERS, 'editableDatasetProperties')).toEqual({ name: 'Orders', description: 'Words' });
    const schema = {
      schemaName: 'orders',
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
      fields: [{ fieldPath: 'id', nativeDataType: 'int', type: { type: { 'com.linkedin.schema.NumberType': {} } } }],
    };
    await upsert('dataset', ORDERS, 'schemaMetadata', schema);
    await describe_({ resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'id', description: 'The key' });
    expect(await aspect(ORDERS, 'editableSchemaMetadata')).toMatchObject({
      editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'The key' }],
    });
    await describe_({ resourceUrn: MARKETING, description: 'Campaigns' });
    expect(await aspect(MARKETING, 'domainProperties')).toEqual({ name: 'Marketing', description: 'Campaigns' });
    const { body } = await mds.graphql(
      `query { dataset(urn: "${ORDERS}") { editableProperties { description name } editableSchemaMetadata { editableSchemaFieldInfo { fieldPath description } } } }`,
    );
    expect(body.data.dataset).toEqual({
      editableProperties: { description: 'Words', name: 'Orders' },
      editableSchemaMetadata: { editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'The key' }] },
    });
  });

  it('refuses with DataHub’s texts (D1, D2, T5, T6) and a Reader with the reference 403', async () => {
    expect(graphqlError(await describe_({ resourceUrn: ABSENT }))).toEqual({
      message: `Failed to update ${ABSENT}. ${ABSENT} does not exist.`,
      code: 400,
    });
    expect(graphqlError(await describe_({ resourceUrn: 'urn:li:corpuser:datahub' }))).toEqual({
      message: 'Failed to update description. Unsupported resource type urn:li:corpuser:datahub provided.',
      code: 400,
    });
    expect(graphqlError(await describe_({ resourceUrn: USERS, subResourceType: 'DATASET_FIELD', subResource: 'id' }))).toEqual({
      message: `Failed to update ${USERS} & field id. ${USERS} has no schema.`,
      code: 400,
    });
    expect(graphqlError(await describe_({ resourceUrn: ORDERS, subResourceType: 'DATASET_FIELD', subResource: 'nope' }))).toEqual({
      message: `Failed to update ${ORDERS} & field nope. Field nope does not exist in the datasets schema.`,
      code: 400,
    });
    expect(graphqlError(await describe_({ resourceUrn: ORDERS }, reader))).toEqual({
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      code: 403,
    });
  });
});
