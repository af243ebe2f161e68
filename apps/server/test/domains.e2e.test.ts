import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestSnapshots } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// Domains over GraphQL (entities-api §9.4, §10: createDomain, listDomains, deleteDomain, with their texts M1-M3).
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';

let mds: Mds;
let editor: string;
let reader: string;
beforeAll(async () => {
  mds = await startMds();
  await ingestSnapshots(mds);
  editor = await mds.tokenFor('urn:li:corpuser:eddie', 'urn:li:dataHubRole:Editor');
  reader = await mds.tokenFor('urn:li:corpuser:rita', 'urn:li:dataHubRole:Reader');
});
afterAll(() => mds?.close());

const create = (input: Record<string, unknown>, token = mds.rootToken) =>
  mds.graphql('mutation ($input: CreateDomainInput!) { createDomain(input: $input) }', { input }, token);
const list = async (input: Record<string, unknown>) => {
  const result = await mds.graphql(
    'query ($input: ListDomainsInput!) { listDomains(input: $input) { start count total domains { urn id properties { name description } } } }',
    { input },
  );
  expect(graphqlError(result)).toBeUndefined();
  return result.body.data.listDomains;
};

describe('createDomain and listDomains', () => {
  it('creates a domain owned by its creator, listed newest first among the root domains, children under their parent', async () => {
    expect((await create({ id: 'finance', name: 'Finance', description: 'Money' })).body.data).toEqual({
      createDomain: 'urn:li:domain:finance',
    });
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later creation time than finance's
    expect((await create({ id: 'sales', name: 'Sales' }, editor)).body.data).toEqual({ createDomain: 'urn:li:domain:sales' });
    expect((await create({ id: 'payroll', name: 'Payroll', parentDomain: 'urn:li:domain:finance' })).body.data.createDomain).toBe(
      'urn:li:domain:payroll',
    );

    const roots = await list({ start: 0, count: 10 });
    expect(roots.domains.map((d: { urn: string }) => d.urn)).toEqual(['urn:li:domain:sales', 'urn:li:domain:finance']);
    expect(roots.domains[1]).toEqual({
      urn: 'urn:li:domain:finance',
      id: 'finance',
      properties: { name: 'Finance', description: 'Money' },
    });
    expect(await list({ parentDomain: 'urn:li:domain:finance' })).toMatchObject({ total: 1, domains: [{ urn: 'urn:li:domain:payroll' }] });
    expect(await list({ query: 'fin' })).toMatchObject({ total: 1, domains: [{ id: 'finance' }] });

    const { body } =
      await mds.graphql(`{ domain(urn: "urn:li:domain:sales") { ownership { owners { owner { ... on CorpUser { urn } } type } } }
      payroll: domain(urn: "urn:li:domain:payroll") { parentDomains { count domains { urn } } } }`);
    expect(body.data.domain.ownership.owners).toEqual([{ owner: { urn: 'urn:li:corpuser:eddie' }, type: 'TECHNICAL_OWNER' }]);
    expect(body.data.payroll.parentDomains).toEqual({ count: 1, domains: [{ urn: 'urn:li:domain:finance' }] });
  });

  it('answers DataHub’s texts for a taken id, a missing parent and a sibling of the same name (any case)', async () => {
    await create({ id: 'ops', name: 'Operations' });
    expect(graphqlError(await create({ id: 'ops', name: 'Other' }))).toEqual({ message: 'This Domain already exists!', code: 400 });
    expect(graphqlError(await create({ name: 'X', parentDomain: 'urn:li:domain:nope' }))).toEqual({
      message: 'Parent Domain does not exist!',
      code: 400,
    });
    expect(graphqlError(await create({ name: 'operations' }))).toEqual({
      message: '"operations" already exists in this domain. Please pick a unique name.',
      code: 409,
    });
  });

  it('gives a domain created without an id a random one', async () => {
    const urn = (await create({ name: 'Anonymous' })).body.data.createDomain;
    expect(urn).toMatch(/^urn:li:domain:[0-9a-f-]{36}$/);
  });

  it('refuses a Reader, and writes nothing', async () => {
    expect(graphqlError(await create({ id: 'readers', name: 'Readers' }, reader))).toEqual({
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      code: 403,
    });
    expect((await mds.graphql('{ domain(urn: "urn:li:domain:readers") { urn } }')).body.data.domain).toBeNull();
  });
});

describe('deleteDomain', () => {
  it('takes the domain off its entities, then deletes it', async () => {
    await create({ id: 'doomed', name: 'Doomed' });
    for (const urn of [HIVE, KAFKA])
      expect(
        (await mds.graphql(`mutation { setDomain(entityUrn: "${urn}", domainUrn: "urn:li:domain:doomed") }`)).body.data.setDomain,
      ).toBe(true);
    expect((await mds.graphql('mutation { deleteDomain(urn: "urn:li:domain:doomed") }')).body.data.deleteDomain).toBe(true);
    const { body } =
      await mds.graphql(`{ hive: dataset(urn: "${HIVE}") { domain { domain { urn } } } kafka: dataset(urn: "${KAFKA}") { domain { domain { urn } } }
      domain(urn: "urn:li:domain:doomed") { urn } }`);
    expect(body.data).toEqual({ hive: { domain: null }, kafka: { domain: null }, domain: null });
  });

  it('refuses a domain with children, an absent one, and an Editor (no DELETE_ENTITY, but MANAGE_DOMAINS allows)', async () => {
    await create({ id: 'parent', name: 'Parent' });
    await create({ id: 'child', name: 'Child', parentDomain: 'urn:li:domain:parent' });
    expect(graphqlError(await mds.graphql('mutation { deleteDomain(urn: "urn:li:domain:parent") }'))).toEqual({
      message: 'Cannot delete domain urn:li:domain:parent which has child domains',
      code: 400,
    });
    expect(graphqlError(await mds.graphql('mutation { deleteDomain(urn: "urn:li:domain:ghost") }'))).toEqual({
      message: 'Domain urn:li:domain:ghost does not exist.',
      code: 404,
    });
    expect(graphqlError(await mds.graphql('mutation { deleteDomain(urn: "urn:li:domain:child") }', {}, reader))?.code).toBe(403);
    expect((await mds.graphql('mutation { deleteDomain(urn: "urn:li:domain:child") }', {}, editor)).body.data.deleteDomain).toBe(true);
  });
});
