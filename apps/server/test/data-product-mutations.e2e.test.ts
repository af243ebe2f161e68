import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { ingestSampleData } from './support/graphql-docs';
import { startMds, type Mds } from './support/mds';
import { sendUiMutation, storedAspect } from './support/ui-mutations';
import { bootstrapPlaceholders, readUiVariables } from './webui/ui-queries';

// Data products and domain moves (issue 33) as DataHub's web UI sends them (dataProduct.graphql, domain.graphql, the
// variables of variables.json) to a real mds over DataHub's bootstrap sample. createDataProduct and updateDataProduct
// select fragments of types other helpers complete (CorpUser.info, Application): until then they are sent with the
// UI's variables and a smaller selection. Each case names the DataHub resolver it follows.
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';
const DOMAIN = 'urn:li:domain:marketing';
const PRODUCT = 'urn:li:dataProduct:customer_360';
const UNAUTHORIZED = { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 };
const placeholders = bootstrapPlaceholders().values;
const uiVariables = (name: string) =>
  JSON.parse(
    JSON.stringify(readUiVariables().mutations[name]![0]!.variables).replace(/"\$[A-Z_]+"/g, (p) =>
      JSON.stringify(placeholders[p.slice(1, -1)]),
    ),
  );

let mds: Mds;
let reader: string;
let editor: string;
beforeAll(async () => {
  mds = await startMds();
  reader = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
  editor = await mds.tokenFor('urn:li:corpuser:editor', 'urn:li:dataHubRole:Editor');
  await ingestSampleData(mds);
  expect((await mds.graphql(`mutation { createDomain(input: { id: "marketing", name: "Marketing" }) }`)).body.errors).toBeUndefined();
});
afterAll(() => mds?.close());

const assetsOf = async (urn: string) =>
  ((await storedAspect(mds, urn, 'dataProductProperties'))?.assets ?? []).map((a: { destinationUrn: string }) => a.destinationUrn);

describe('createDataProduct, updateDataProduct (CreateDataProductResolver, UpdateDataProductResolver)', () => {
  it('creates a product in the domain, owned by its creator, and renames it', async () => {
    const create = `mutation createDataProduct($input: CreateDataProductInput!) { createDataProduct(input: $input) { urn properties { name description numAssets } domain { domain { urn } } } }`;
    const variables = uiVariables('createDataProduct');
    expect(graphqlError((await mds.graphql(create, variables, reader)) as never)).toEqual(UNAUTHORIZED);
    const created = await mds.graphql(create, { input: { ...variables.input, id: 'customer_360' } }, editor);
    expect(created.body).toEqual({
      data: {
        createDataProduct: {
          urn: PRODUCT,
          properties: { name: 'Customer 360', description: 'Everything about customers', numAssets: 0 },
          domain: { domain: { urn: DOMAIN } },
        },
      },
    });
    expect((await storedAspect(mds, PRODUCT, 'ownership'))?.owners[0].owner).toBe('urn:li:corpuser:editor');
    const again = await mds.graphql(create, { input: { ...variables.input, id: 'customer_360' } });
    expect(graphqlError(again as never)).toEqual({ message: 'This Data product already exists!', code: 400 });
    const noDomain = await mds.graphql(create, { input: { ...variables.input, domainUrn: 'urn:li:domain:nowhere' } });
    expect(graphqlError(noDomain as never)).toEqual({ message: 'The Domain provided dos not exist', code: 400 });

    const update = `mutation updateDataProduct($urn: String!, $input: UpdateDataProductInput!) { updateDataProduct(urn: $urn, input: $input) { urn properties { name description } } }`;
    const updated = await mds.graphql(update, uiVariables('updateDataProduct'));
    expect(updated.body.data.updateDataProduct).toEqual({ urn: PRODUCT, properties: { name: 'Customer 360', description: 'Renamed' } });
    expect(graphqlError((await mds.graphql(update, uiVariables('updateDataProduct'), reader)) as never)).toEqual(UNAUTHORIZED);
  });
});

describe('batchSetDataProduct (BatchSetDataProductResolver)', () => {
  it('adds assets with the caller’s stamp, once, and unsets them; refuses an absent resource and a Reader', async () => {
    expect((await sendUiMutation(mds, 'batchSetDataProduct', { token: editor })).body).toEqual({ data: { batchSetDataProduct: true } });
    await sendUiMutation(mds, 'batchSetDataProduct', { change: (v) => (v.input.resourceUrns = [HIVE, KAFKA]) });
    expect(await assetsOf(PRODUCT)).toEqual([HIVE, KAFKA]);
    expect((await storedAspect(mds, PRODUCT, 'dataProductProperties'))?.assets[0].created.actor).toBe('urn:li:corpuser:editor');
    const { body } = await mds.graphql(`{ dataProduct(urn: "${PRODUCT}") { properties { numAssets } } }`);
    expect(body.data.dataProduct.properties.numAssets).toBe(2);

    expect(graphqlError((await sendUiMutation(mds, 'batchSetDataProduct', { call: 1, token: reader })) as never)).toEqual(UNAUTHORIZED);
    const absent = 'urn:li:dataset:(urn:li:dataPlatform:hive,never,PROD)';
    const missing = await sendUiMutation(mds, 'batchSetDataProduct', { change: (v) => (v.input.resourceUrns = [absent]) });
    expect(graphqlError(missing as never)).toEqual({
      message: `Failed to batch set Data Product, ${absent} in resources does not exist`,
      code: 400,
    });

    expect((await sendUiMutation(mds, 'batchSetDataProduct', { call: 1 })).body).toEqual({ data: { batchSetDataProduct: true } });
    expect(await assetsOf(PRODUCT)).toEqual([KAFKA]);
  });
});

describe('deleteDataProduct (DeleteDataProductResolver)', () => {
  it('needs who manages the domain’s products, then deletes the product', async () => {
    expect(graphqlError((await sendUiMutation(mds, 'deleteDataProduct', { token: reader })) as never)).toEqual(UNAUTHORIZED);
    expect((await sendUiMutation(mds, 'deleteDataProduct', { token: editor })).body).toEqual({ data: { deleteDataProduct: true } });
    expect((await mds.graphql(`{ dataProduct(urn: "${PRODUCT}") { urn } }`)).body.data.dataProduct).toBeNull();
    const again = await sendUiMutation(mds, 'deleteDataProduct');
    expect(graphqlError(again as never)).toEqual({ message: 'The Data Product provided dos not exist', code: 400 });
  });
});

describe('moveDomain (MoveDomainResolver)', () => {
  it('moves a domain under another and back to the root; refuses a taken name, a cycle and a Reader', async () => {
    const create = (id: string, name: string, parent?: string) =>
      mds.graphql(`mutation { createDomain(input: { id: "${id}", name: "${name}"${parent ? `, parentDomain: "${parent}"` : ''} }) }`);
    await create('sales', 'Sales');
    await create('emea', 'EMEA', 'urn:li:domain:sales');
    await create('other_marketing', 'Marketing', 'urn:li:domain:sales');
    const move = (resourceUrn: string, parentDomain: string | null, token?: string) =>
      sendUiMutation(mds, 'moveDomain', { token, change: (v) => (v.input = { resourceUrn, parentDomain }) });
    expect(graphqlError((await sendUiMutation(mds, 'moveDomain', { token: reader })) as never)).toEqual(UNAUTHORIZED);
    // The UI's own call moves marketing to the root, where it already is.
    expect((await sendUiMutation(mds, 'moveDomain')).body).toEqual({ data: { moveDomain: true } });

    expect((await move('urn:li:domain:emea', null, editor)).body).toEqual({ data: { moveDomain: true } });
    expect((await storedAspect(mds, 'urn:li:domain:emea', 'domainProperties'))?.parentDomain).toBeUndefined();
    const roots = await mds.graphql(`{ listDomains(input: { start: 0, count: 100 }) { domains { urn } } }`);
    expect(roots.body.data.listDomains.domains.map((d: { urn: string }) => d.urn)).toContain('urn:li:domain:emea');

    const taken = await move(DOMAIN, 'urn:li:domain:sales');
    expect(graphqlError(taken as never)).toEqual({
      message: '"Marketing" already exists in the destination domain. Please pick a unique name.',
      code: 409,
    });
    const cycle = await move('urn:li:domain:sales', 'urn:li:domain:sales');
    expect(graphqlError(cycle as never)).toEqual({
      message: 'Cannot move domain urn:li:domain:sales under itself or one of its children.',
      code: 400,
    });
    expect((await move('urn:li:domain:emea', 'urn:li:domain:sales')).body).toEqual({ data: { moveDomain: true } });
    expect((await storedAspect(mds, 'urn:li:domain:emea', 'domainProperties'))?.parentDomain).toBe('urn:li:domain:sales');
    const notDomain = await move(HIVE, null);
    expect(graphqlError(notDomain as never)).toEqual({ message: 'Resource is not a domain.', code: 400 });
  });
});
