import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/index';
import { actor, errorOf, upsert, userPolicyOn } from './edit-support';
import { goldenGraphql } from './golden';

// Who may change the glossary, as DataHub's GlossaryUtils decides it for its mutations (CreateGlossaryTermResolver,
// UpdateParentNodeResolver, UpdateNameResolver, DeleteGlossaryEntityResolver, OwnerUtils, DomainUtils,
// UpdateDescriptionResolver): MANAGE_GLOSSARIES, or a stored policy granting MANAGE_GLOSSARY_CHILDREN (the node's
// direct children) or MANAGE_ALL_GLOSSARY_CHILDREN (everything below) on a node. The `privileges` flags the UI shows
// are asked of the same rule, so what it offers is what a mutation then allows.
const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const ROOT = 'urn:li:glossaryNode:root';
const CHILD = 'urn:li:glossaryNode:child';
const OTHER = 'urn:li:glossaryNode:other';
const TERM = 'urn:li:glossaryTerm:term';
const DEEP = 'urn:li:glossaryTerm:deep';
const STEWARD = 'urn:li:corpuser:steward';
const DOMAIN = 'urn:li:domain:finance';
const FORBIDDEN = { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 };

async function glossary() {
  const api = await goldenGraphql(databases, []);
  await api.service.ingest(
    SYSTEM_ACTOR,
    [
      upsert(ROOT, 'glossaryNodeInfo', { name: 'Root', definition: '' }),
      upsert(OTHER, 'glossaryNodeInfo', { name: 'Other', definition: '' }),
      upsert(CHILD, 'glossaryNodeInfo', { name: 'Child', definition: '', parentNode: ROOT }),
      upsert(TERM, 'glossaryTermInfo', { name: 'Term', definition: '', termSource: 'INTERNAL', parentNode: ROOT }),
      upsert(DEEP, 'glossaryTermInfo', { name: 'Deep', definition: '', termSource: 'INTERNAL', parentNode: CHILD }),
      upsert(DOMAIN, 'domainProperties', { name: 'Finance' }),
      upsert(STEWARD, 'corpUserInfo', { active: true, displayName: 'Steward' }),
    ],
    { batch: true },
  );
  const grantOn = (id: string, privilege: Privilege, node: string) =>
    api.service.ingest(SYSTEM_ACTOR, [userPolicyOn(id, STEWARD, privilege, node)], { batch: true });
  const steward = () => actor(STEWARD);
  const send = (query: string, variables?: Record<string, unknown>) => api.run(query, variables, steward());
  const manages = async (urn: string) => {
    const type = urn.includes('glossaryNode') ? 'GlossaryNode' : 'GlossaryTerm';
    const read = await api.run(`{ entity(urn: "${urn}") { ... on ${type} { privileges { canManageEntity } } } }`, undefined, steward());
    return (read.data!.entity as { privileges: { canManageEntity: boolean } }).privileges.canManageEntity;
  };
  return { ...api, grantOn, send, manages };
}

const CREATE_TERM = `mutation createGlossaryTerm($input: CreateGlossaryEntityInput!) { createGlossaryTerm(input: $input) }`;
const RENAME = `mutation updateName($input: UpdateNameInput!) { updateName(input: $input) }`;
const MOVE = `mutation updateParentNode($input: UpdateParentNodeInput!) { updateParentNode(input: $input) }`;
const DELETE = `mutation deleteGlossaryEntity($urn: String!) { deleteGlossaryEntity(urn: $urn) }`;
const OWNERS = `mutation addOwners($input: AddOwnersInput!) { addOwners(input: $input) }`;
const DESCRIBE = `mutation updateDescription($input: DescriptionUpdateInput!) { updateDescription(input: $input) }`;
const SET_DOMAIN = `mutation setDomain($entityUrn: String!, $domainUrn: String!) { setDomain(entityUrn: $entityUrn, domainUrn: $domainUrn) }`;

describe('glossary authority: one rule for the mutations and the privileges flags', () => {
  it('without a policy on a node, a user with no glossary privilege changes nothing and is offered nothing', async () => {
    const { send, manages } = await glossary();
    expect(errorOf(await send(CREATE_TERM, { input: { id: 'new', name: 'New', parentNode: ROOT } }))).toEqual([FORBIDDEN]);
    expect(errorOf(await send(RENAME, { input: { urn: TERM, name: 'Renamed' } }))).toEqual([FORBIDDEN]);
    expect(errorOf(await send(DELETE, { urn: TERM }))).toEqual([FORBIDDEN]);
    expect(
      errorOf(
        await send(OWNERS, {
          input: { resourceUrn: TERM, owners: [{ ownerUrn: STEWARD, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' }] },
        }),
      ),
    ).toEqual([FORBIDDEN]);
    expect(await manages(TERM)).toBe(false);
  });

  it('MANAGE_GLOSSARY_CHILDREN on a node: its direct children are created, renamed, owned, described, put in a domain and deleted; nothing deeper or elsewhere', async () => {
    const { send, manages, grantOn, service } = await glossary();
    await grantOn('root-children', Privilege.MANAGE_GLOSSARY_CHILDREN, ROOT);
    const read = service.reader(SYSTEM_ACTOR, { api: 'graphql' });
    const aspect = async (urn: string, name: string) => (await read.latest([urn], [name])).get(urn)?.get(name)?.value;

    expect(await manages(TERM)).toBe(true);
    expect(await manages(DEEP)).toBe(false);

    expect((await send(CREATE_TERM, { input: { id: 'new', name: 'New', parentNode: ROOT } })).data).toEqual({
      createGlossaryTerm: 'urn:li:glossaryTerm:new',
    });
    expect(await aspect('urn:li:glossaryTerm:new', 'glossaryTermInfo')).toMatchObject({ name: 'New', parentNode: ROOT });
    expect((await send(RENAME, { input: { urn: TERM, name: 'Renamed' } })).data).toEqual({ updateName: true });
    expect(await aspect(TERM, 'glossaryTermInfo')).toMatchObject({ name: 'Renamed' });
    const owners = { input: { resourceUrn: TERM, owners: [{ ownerUrn: STEWARD, ownerEntityType: 'CORP_USER', type: 'TECHNICAL_OWNER' }] } };
    const added = await send(OWNERS, owners);
    expect(errorOf(added)).toBeUndefined();
    expect(added.data).toEqual({ addOwners: true });
    expect((await send(DESCRIBE, { input: { resourceUrn: TERM, description: 'Now documented' } })).data).toEqual({
      updateDescription: true,
    });
    expect(await aspect(TERM, 'glossaryTermInfo')).toMatchObject({ definition: 'Now documented' });
    expect((await send(SET_DOMAIN, { entityUrn: TERM, domainUrn: DOMAIN })).data).toEqual({ setDomain: true });
    expect(await aspect(TERM, 'domains')).toEqual({ domains: [DOMAIN] });

    // Not at the root, not under another node, not two levels down, and not a move out to a node it does not manage.
    expect(errorOf(await send(CREATE_TERM, { input: { id: 'top', name: 'Top' } }))).toEqual([FORBIDDEN]);
    expect(errorOf(await send(CREATE_TERM, { input: { id: 'elsewhere', name: 'Elsewhere', parentNode: OTHER } }))).toEqual([FORBIDDEN]);
    expect(errorOf(await send(RENAME, { input: { urn: DEEP, name: 'Renamed' } }))).toEqual([FORBIDDEN]);
    expect(errorOf(await send(MOVE, { input: { resourceUrn: TERM, parentNode: OTHER } }))).toEqual([FORBIDDEN]);
    expect(await aspect(TERM, 'glossaryTermInfo')).toMatchObject({ parentNode: ROOT });
    expect(await read.exists('urn:li:glossaryTerm:top')).toBe(false);

    expect((await send(DELETE, { urn: TERM })).data).toEqual({ deleteGlossaryEntity: true });
    expect(await read.exists(TERM)).toBe(false);
  });

  it('MANAGE_ALL_GLOSSARY_CHILDREN on a node reaches every level below it, and a move between two nodes it manages', async () => {
    const { send, manages, grantOn, service } = await glossary();
    await grantOn('root-all', Privilege.MANAGE_ALL_GLOSSARY_CHILDREN, ROOT);
    expect(await manages(DEEP)).toBe(true);
    expect((await send(RENAME, { input: { urn: DEEP, name: 'Renamed' } })).data).toEqual({ updateName: true });
    expect((await send(MOVE, { input: { resourceUrn: DEEP, parentNode: ROOT } })).data).toEqual({ updateParentNode: true });
    const info = (await service.reader(SYSTEM_ACTOR, { api: 'graphql' }).latest([DEEP], ['glossaryTermInfo']))
      .get(DEEP)
      ?.get('glossaryTermInfo');
    expect(info?.value).toMatchObject({ name: 'Renamed', parentNode: ROOT });
    expect(errorOf(await send(MOVE, { input: { resourceUrn: DEEP, parentNode: OTHER } }))).toEqual([FORBIDDEN]);
  });
});
