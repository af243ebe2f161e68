import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestSnapshots } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// Owner mutations (entities-api §10) over DataHub's bootstrap file: users jdoe and datahub, group jdoe exist there.
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';
const HDFS = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)';
const ABSENT = 'urn:li:dataset:(urn:li:dataPlatform:hive,never,PROD)';
const JDOE = 'urn:li:corpuser:jdoe';
const GROUP = 'urn:li:corpGroup:jdoe';
const TECHNICAL = 'urn:li:ownershipType:__system__technical_owner';

const ADD = `mutation ($input: AddOwnerInput!) { addOwner(input: $input) }`;
const ADD_MANY = `mutation ($input: AddOwnersInput!) { addOwners(input: $input) }`;
const REMOVE = `mutation ($input: RemoveOwnerInput!) { removeOwner(input: $input) }`;
const BATCH_ADD = `mutation ($input: BatchAddOwnersInput!) { batchAddOwners(input: $input) }`;
const BATCH_REMOVE = `mutation ($input: BatchRemoveOwnersInput!) { batchRemoveOwners(input: $input) }`;

let mds: Mds;
let reader: string;
const ownersOf = async (urn: string) =>
  ((await mds.domains.entities.store.get(urn, 'ownership'))?.value ?? {}) as { owners?: Record<string, unknown>[]; lastModified?: unknown };

beforeAll(async () => {
  mds = await startMds();
  reader = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
  await ingestSnapshots(mds);
});
afterAll(() => mds?.close());

describe('addOwner, addOwners, removeOwner', () => {
  it('adds {owner, type, typeUrn, source: MANUAL}, replacing the same owner and type, and stamps lastModified with the caller', async () => {
    const before = (await ownersOf(KAFKA)).owners ?? [];
    await mds.graphql(ADD, { input: { ownerUrn: JDOE, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER', resourceUrn: KAFKA } });
    await mds.graphql(ADD, { input: { ownerUrn: JDOE, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER', resourceUrn: KAFKA } });
    const after = await ownersOf(KAFKA);
    const mine = after.owners!.filter((o) => o.owner === JDOE && o.typeUrn === TECHNICAL);
    expect(mine).toEqual([{ owner: JDOE, type: 'TECHNICAL_OWNER', typeUrn: TECHNICAL, source: { type: 'MANUAL' } }]);
    expect(after.owners!.length).toBe(before.filter((o) => !(o.owner === JDOE && o.typeUrn === TECHNICAL)).length + 1);
    expect(after.lastModified).toEqual({ time: expect.any(Number), actor: 'urn:li:corpuser:datahub' });
    // A group, through addOwners; GraphQL shows both kinds of owner.
    await mds.graphql(ADD_MANY, {
      input: { owners: [{ ownerUrn: GROUP, ownerEntityType: 'CORP_GROUP', type: 'BUSINESS_OWNER' }], resourceUrn: KAFKA },
    });
    const { body } = await mds.graphql(
      `query { dataset(urn: "${KAFKA}") { ownership { owners { owner { ... on CorpUser { urn } ... on CorpGroup { urn name } } type ownershipType { urn } } } } }`,
    );
    expect(body.data.dataset.ownership.owners).toContainEqual({
      owner: { urn: GROUP, name: 'jdoe' },
      type: 'BUSINESS_OWNER',
      ownershipType: { urn: 'urn:li:ownershipType:__system__business_owner' },
    });
  });

  it('removes one ownership type of an owner, or every entry of the owner without one', async () => {
    await mds.graphql(ADD, { input: { ownerUrn: JDOE, ownerEntityType: 'CORP_USER', type: 'DATA_STEWARD', resourceUrn: HDFS } });
    await mds.graphql(ADD, { input: { ownerUrn: JDOE, ownerEntityType: 'CORP_USER', type: 'BUSINESS_OWNER', resourceUrn: HDFS } });
    await mds.graphql(REMOVE, {
      input: { ownerUrn: JDOE, ownershipTypeUrn: 'urn:li:ownershipType:__system__data_steward', resourceUrn: HDFS },
    });
    const jdoe = async () => (await ownersOf(HDFS)).owners!.filter((o) => o.owner === JDOE).map((o) => o.type);
    expect(await jdoe()).toContain('BUSINESS_OWNER');
    expect(await jdoe()).not.toContain('DATA_STEWARD');
    expect((await mds.graphql(REMOVE, { input: { ownerUrn: JDOE, resourceUrn: HDFS } })).body).toEqual({ data: { removeOwner: true } });
    expect(await jdoe()).toEqual([]);
  });

  it('refuses with DataHub’s texts (O1-O6), a Reader with the reference 403, and writes nothing', async () => {
    const versions = (await mds.domains.entities.store.versions(KAFKA, 'ownership')).length;
    const owner = (more: Record<string, unknown>) => ({
      input: { ownerUrn: JDOE, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER', resourceUrn: KAFKA, ...more },
    });
    const cases: [unknown, string][] = [
      [owner({ resourceUrn: ABSENT }), `Failed to change ownership for resource ${ABSENT}. Resource does not exist.`],
      [owner({ ownerUrn: GROUP }), `Failed to change ownership for resource(s). Expected a corp user urn, found ${GROUP}.`],
      [owner({ ownerEntityType: 'CORP_GROUP' }), `Failed to change ownership for resource(s). Expected a corp group urn, found ${JDOE}`],
      [
        owner({ ownerUrn: 'urn:li:corpuser:ghost' }),
        'Failed to change ownership for resource(s). Owner with urn urn:li:corpuser:ghost does not exist.',
      ],
      [
        owner({ type: null, ownershipTypeUrn: 'urn:li:ownershipType:custom' }),
        'Failed to change ownership for resource(s). Custom Ownership type with urn urn:li:ownershipType:custom does not exist.',
      ],
      [owner({ type: null }), 'Failed to change ownership for resource(s). Expected either type or ownershipTypeUrn to be specified.'],
    ];
    for (const [variables, message] of cases)
      expect(graphqlError(await mds.graphql(ADD, variables as Record<string, unknown>))).toEqual({ message, code: 400 });
    expect(graphqlError(await mds.graphql(ADD, owner({}), reader))).toEqual({
      message: 'Unauthorized to perform this action. Please contact your DataHub administrator.',
      code: 403,
    });
    expect((await mds.domains.entities.store.versions(KAFKA, 'ownership')).length).toBe(versions);
  });
});

describe('batchAddOwners and batchRemoveOwners', () => {
  it('check every resource before writing any, then write them all', async () => {
    const owners = [{ ownerUrn: 'urn:li:corpuser:datahub', ownerEntityType: 'CORP_USER', type: 'DATA_STEWARD' }];
    const refused = await mds.graphql(BATCH_ADD, { input: { owners, resources: [{ resourceUrn: HDFS }, { resourceUrn: ABSENT }] } });
    expect(graphqlError(refused)?.message).toBe(`Failed to change ownership for resource ${ABSENT}. Resource does not exist.`);
    const stewards = async (urn: string) =>
      (await ownersOf(urn)).owners!.filter((o) => o.owner === 'urn:li:corpuser:datahub' && o.type === 'DATA_STEWARD');
    expect(await stewards(HDFS)).toEqual([]);
    const both = [{ resourceUrn: HDFS }, { resourceUrn: KAFKA }];
    expect((await mds.graphql(BATCH_ADD, { input: { owners, resources: both } })).body.data.batchAddOwners).toBe(true);
    expect((await stewards(HDFS)).length + (await stewards(KAFKA)).length).toBe(2);
    await mds.graphql(BATCH_REMOVE, {
      input: { ownerUrns: ['urn:li:corpuser:datahub'], ownershipTypeUrn: 'urn:li:ownershipType:__system__data_steward', resources: both },
    });
    expect((await stewards(HDFS)).length + (await stewards(KAFKA)).length).toBe(0);
  });
});
