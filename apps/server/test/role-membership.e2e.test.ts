import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compose } from '../src/compose';
import { loadConfig } from '../src/config';
import { startMds, type Mds } from './support/mds';
import { sendUiMutation, storedAspect } from './support/ui-mutations';
import { readUiDocuments, type UiOperation } from './webui/ui-documents';
import { bootstrapPlaceholders, readUiVariables, runUiOperation } from './webui/ui-queries';

// Roles as DataHub records them: the roleMembership aspect of a user or group (BatchAssignRoleResolver through
// RoleService.batchAssignRoleToActors), listed by the Roles page through IsMemberOfRole edges (ListRolesResolver), and
// resolved for a decision with the roles of the user's groups (DataHubAuthorizer / DefaultEntitySpecResolver's roles).
const EDITOR = 'urn:li:dataHubRole:Editor';
const READER = 'urn:li:dataHubRole:Reader';
const ADMIN = 'urn:li:dataHubRole:Admin';
const CREATE_TAG = 'mutation($id: String!) { createTag(input: { id: $id, name: $id }) }';
const ME = '{ me { platformPrivileges { manageTags managePolicies } } }';

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
  // Its refusals are of callers lacking a privilege: DataHub's default policies for all users are deactivated.
  await mds.withoutAllUsersPolicies();
});
afterAll(() => mds?.close());

const ingest = async (urn: string, aspectName: string, value: unknown) => {
  const entityType = urn.split(':')[2];
  const proposal = {
    entityType,
    entityUrn: urn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  };
  const res = await mds.post('/aspects?action=ingestProposal', { proposal });
  expect([res.status, res.body?.message]).toEqual([200, undefined]);
};

/** createTag (MANAGE_TAGS or CREATE_TAGS) refused with DataHub's text, nothing created. */
const expectRefused = async (id: string, token: string) => {
  const { body } = await mds.graphql(CREATE_TAG, { id }, token);
  expect([body.data?.createTag ?? null, body.errors?.[0]?.message]).toEqual([
    null,
    'Unauthorized to perform this action. Please contact your DataHub administrator.',
  ]);
};

const listRoles = async () => {
  const op = readUiDocuments().operations.find((o): o is UiOperation => o.kind === 'query' && o.name === 'listRoles')!;
  const call = readUiVariables().queries.listRoles![0]!;
  const { status, body } = await runUiOperation(
    async (sent) => {
      const res = await mds.clientFor(mds.rootToken).post('/api/graphql', sent);
      return { status: res.status, body: res.body };
    },
    op,
    call,
    bootstrapPlaceholders().values,
  );
  expect([status, body?.errors]).toEqual([200, undefined]);
  return (body?.data as any).listRoles.roles as any[];
};
const membersOf = (roles: any[], name: string) =>
  (roles.find((r) => r.name === name).users.relationships as any[]).map((r) => r.entity.urn).sort();

describe("batchAssignRole writes roleMembership (DataHub's BatchAssignRoleResolver, RoleService)", () => {
  it("records the UI's assignment as the user's roleMembership, which the Roles page lists and the next request applies", async () => {
    const alice = 'urn:li:corpuser:alice';
    const token = await mds.tokenFor(alice, null);
    await expectRefused('alice-before', token);

    const res = await sendUiMutation(mds, 'batchAssignRole', { overrides: { $ROLE_URN: EDITOR, $USER_URN: alice } });
    expect([res.status, res.body.errors, res.body.data]).toEqual([200, undefined, { batchAssignRole: true }]);
    expect(await storedAspect(mds, alice, 'roleMembership')).toEqual({ roles: [EDITOR] });
    expect(membersOf(await listRoles(), 'Editor')).toContain(alice);
    expect((await mds.graphql(CREATE_TAG, { id: 'alice-after' }, token)).body).toEqual({ data: { createTag: 'urn:li:tag:alice-after' } });

    // A null role writes an empty roleMembership, as DataHub's RoleService does; the user is no longer listed.
    const removed = await sendUiMutation(mds, 'batchAssignRole', { overrides: { $ROLE_URN: null, $USER_URN: alice } });
    expect(removed.body.data).toEqual({ batchAssignRole: true });
    expect(await storedAspect(mds, alice, 'roleMembership')).toEqual({ roles: [] });
    expect(membersOf(await listRoles(), 'Editor')).not.toContain(alice);
    await expectRefused('alice-removed', token);
  });

  it("gives a group's role to its members, whether the membership is ingested or native", async () => {
    const stewards = 'urn:li:corpGroup:stewards';
    const bob = 'urn:li:corpuser:bob';
    const cleo = 'urn:li:corpuser:cleo';
    const bobToken = await mds.tokenFor(bob, null);
    const cleoToken = await mds.tokenFor(cleo, null);
    await ingest(bob, 'groupMembership', { groups: [stewards] });
    await ingest(cleo, 'nativeGroupMembership', { nativeGroups: [stewards] });
    expect((await mds.graphql(ME, {}, bobToken)).body.data.me.platformPrivileges).toEqual({ manageTags: false, managePolicies: false });

    const res = await sendUiMutation(mds, 'batchAssignRole', { overrides: { $ROLE_URN: EDITOR, $USER_URN: stewards } });
    expect(res.body).toEqual({ data: { batchAssignRole: true } });
    expect(await storedAspect(mds, stewards, 'roleMembership')).toEqual({ roles: [EDITOR] });
    expect(await storedAspect(mds, bob, 'roleMembership')).toEqual({ roles: [] }); // the group holds the role, not bob
    for (const [who, token] of [
      ['bob', bobToken],
      ['cleo', cleoToken],
    ] as const) {
      expect((await mds.graphql(ME, {}, token)).body.data.me.platformPrivileges).toEqual({ manageTags: true, managePolicies: false });
      expect((await mds.graphql(CREATE_TAG, { id: `via-group-${who}` }, token)).body.data).toEqual({
        createTag: `urn:li:tag:via-group-${who}`,
      });
    }
    expect(membersOf(await listRoles(), 'Editor')).not.toContain(bob); // the Roles page lists direct members, as DataHub's
    // Leaving the group takes the role away on the next request.
    await ingest(bob, 'groupMembership', { groups: [] });
    await expectRefused('bob-left', bobToken);
  });

  it('honours a roleMembership a recipe or the SDK writes, and refuses the assignment to a caller without MANAGE_POLICIES', async () => {
    const dora = 'urn:li:corpuser:dora';
    const token = await mds.tokenFor(dora, READER);
    const refused = await sendUiMutation(mds, 'batchAssignRole', { token, overrides: { $ROLE_URN: ADMIN, $USER_URN: dora } });
    expect(refused.body.errors?.[0]?.message).toBe(
      'Unauthorized to assign roles. Please contact your DataHub administrator if this needs corrective action.',
    );
    expect(await storedAspect(mds, dora, 'roleMembership')).toEqual({ roles: [READER] });

    await ingest(dora, 'roleMembership', { roles: [ADMIN] });
    expect(await mds.domains.auth.service.roles.of(dora)).toBe(ADMIN);
    const allowed = await sendUiMutation(mds, 'batchAssignRole', {
      token,
      overrides: { $ROLE_URN: READER, $USER_URN: 'urn:li:corpuser:eli' },
    });
    expect(allowed.body).toEqual({ data: { batchAssignRole: true } });
    expect(membersOf(await listRoles(), 'Admin')).toContain(dora);
  });

  it('refuses an actor that is neither a user nor a group, writing nothing', async () => {
    const res = await sendUiMutation(mds, 'batchAssignRole', {
      change: (v) => (v.input.actors = ['urn:li:corpuser:fay', 'urn:li:dataset:nope']),
      overrides: { $ROLE_URN: EDITOR },
    });
    expect(res.body.errors?.[0]?.message).toMatch(/'urn:li:dataset:nope' is neither a user urn .* nor a group urn/);
    expect(await storedAspect(mds, 'urn:li:corpuser:fay', 'roleMembership')).toBeUndefined();
  });
});

describe('a database whose roles the users table holds (before this version)', () => {
  it('moves them into roleMembership on start, and the table no longer holds them', async () => {
    const { dataDir } = mds;
    const gus = 'urn:li:corpuser:gus';
    // What an earlier release left: a role in auth's users table, no roleMembership.
    const db = new Database(join(dataDir, 'mds.db'));
    db.prepare('INSERT INTO users (actor_urn, role_urn, created_at) VALUES (?, ?, ?)').run(gus, EDITOR, Date.now());
    db.close();
    const again = await compose(loadConfig({ DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'test' }));
    try {
      expect((await again.entities.store.latest([gus], ['roleMembership'])).get(gus)?.get('roleMembership')?.value).toEqual({
        roles: [EDITOR],
      });
      expect(await again.auth.service.roles.of(gus)).toBe(EDITOR);
    } finally {
      for (const module of again.modules.reverse()) await module.close?.();
    }
    const after = new Database(join(dataDir, 'mds.db'), { readonly: true });
    expect(after.prepare('SELECT role_urn FROM users WHERE actor_urn = ?').get(gus)).toEqual({ role_urn: null });
    after.close();
  });
});

describe("where a user's access comes from (DataHub's DebugAccessResolver, GetGrantedPrivilegesResolver)", () => {
  const hana = 'urn:li:corpuser:hana';
  const analysts = 'urn:li:corpGroup:analysts';
  const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,debug_access,PROD)';
  const CHART = 'urn:li:chart:(looker,debug_access)';
  const policy = (name: string, users: string[], privileges: string[]) => ({
    displayName: name,
    description: `${name}, for the test`,
    type: 'METADATA',
    state: 'ACTIVE',
    privileges,
    actors: { users, resourceOwners: false, allUsers: false, allGroups: false },
    resources: { filter: { criteria: [{ field: 'TYPE', values: ['dataset'], condition: 'EQUALS' }] }, allResources: false },
    editable: true,
  });
  const DEBUG = `query($u: String!) { debugAccess(userUrn: $u) { roles groups groupsWithRoles rolesViaGroups allRoles policies privileges } }`;
  const GRANTED = `query($input: GetGrantedPrivilegesInput!) { getGrantedPrivileges(input: $input) { privileges evaluationDetails { policyName reason } } }`;
  let hanaToken: string;

  beforeAll(async () => {
    hanaToken = await mds.tokenFor(hana, EDITOR);
    expect(
      (await sendUiMutation(mds, 'batchAssignRole', { overrides: { $ROLE_URN: READER, $USER_URN: analysts } })).body.errors,
    ).toBeUndefined();
    await ingest(hana, 'groupMembership', { groups: [analysts, 'urn:li:corpGroup:no-role'] });
    await ingest('urn:li:dataHubPolicy:hana-owners', 'dataHubPolicyInfo', policy("Hana's owners", [hana], ['EDIT_ENTITY_OWNERS']));
    await ingest(
      'urn:li:dataHubPolicy:someone-else',
      'dataHubPolicyInfo',
      policy('Someone else', ['urn:li:corpuser:ivan'], ['DELETE_ENTITY']),
    );
  });

  it('traces roles direct and through groups, the policies naming the user, and their privileges', async () => {
    const { body } = await mds.graphql(DEBUG, { u: hana });
    expect(body.errors).toBeUndefined();
    const answer = body.data.debugAccess;
    expect({ ...answer, privileges: undefined }).toEqual({
      roles: [EDITOR],
      groups: [analysts, 'urn:li:corpGroup:no-role'],
      groupsWithRoles: [analysts],
      rolesViaGroups: [READER],
      allRoles: [EDITOR, READER],
      // DataHub searches the policies naming the user, a group or role of theirs, all users or all groups, whatever
      // their state: its three default policies for all users are among them.
      policies: [
        'urn:li:dataHubPolicy:7',
        'urn:li:dataHubPolicy:hana-owners',
        'urn:li:dataHubPolicy:view-dataset-sensitive',
        'urn:li:dataHubPolicy:view-entity-page-all',
      ],
      privileges: undefined,
    });
    expect(answer.privileges).toEqual(expect.arrayContaining(['EDIT_ENTITY_OWNERS', 'MANAGE_TAGS', 'VIEW_ENTITY_PAGE']));
    expect(answer.privileges).not.toContain('DELETE_ENTITY');
    expect(answer.privileges).not.toContain('MANAGE_POLICIES');
  });

  it('needs MANAGE_USERS_AND_GROUPS, and answers 400 for a urn that is not a user', async () => {
    const refused = await mds.graphql(DEBUG, { u: hana }, hanaToken);
    expect(refused.body.errors?.[0]?.message).toBe('Unauthorized to perform this action. Please contact your DataHub administrator.');
    const bad = await mds.graphql(DEBUG, { u: analysts });
    expect(bad.body.errors?.[0]?.message).toBe(`Field 'userUrn': '${analysts}' is not a user urn; expected urn:li:corpuser:<id>.`);
  });

  it("answers another user's privileges to a holder of MANAGE_POLICIES, with why each other policy grants nothing", async () => {
    const ask = (resourceUrn: string, token = mds.rootToken, actorUrn = hana) =>
      mds.graphql(
        GRANTED,
        {
          input: {
            actorUrn,
            resourceSpec: { resourceType: resourceUrn.includes('chart') ? 'CHART' : 'DATASET', resourceUrn },
            includeEvaluationDetails: true,
          },
        },
        token,
      );
    const onDataset = (await ask(DATASET)).body.data.getGrantedPrivileges;
    expect(onDataset.privileges).toEqual(expect.arrayContaining(['EDIT_ENTITY_OWNERS', 'EDIT_ENTITY_TAGS']));
    expect(onDataset.privileges).not.toContain('DELETE_ENTITY');
    expect(onDataset.evaluationDetails).toEqual([{ policyName: 'Someone else', reason: 'Actor did not match' }]);
    const onChart = (await ask(CHART)).body.data.getGrantedPrivileges;
    expect(onChart.privileges).not.toContain('EDIT_ENTITY_OWNERS');
    expect(onChart.evaluationDetails).toEqual([
      { policyName: "Hana's owners", reason: 'Resource does not match' },
      { policyName: 'Someone else', reason: 'Resource does not match' },
    ]);
    // The user itself gets its privileges without details (it lacks MANAGE_POLICIES), and nobody else's.
    const own = (await ask(DATASET, hanaToken)).body.data.getGrantedPrivileges;
    expect(own.privileges).toContain('EDIT_ENTITY_OWNERS');
    expect(own.evaluationDetails).toBeNull();
    const other = await ask(DATASET, hanaToken, 'urn:li:corpuser:ivan');
    expect(other.body.errors?.[0]?.message).toBe('Unauthorized to get privileges for the given author.');
  });
});

describe("a role's stored aspects (DataHub's WeaklyTypedAspectsResolver on DataHubRole)", () => {
  it('answers the dataHubRoleInfo a recipe stored for a role, and nothing for a role with none', async () => {
    const info = { name: 'Editor', description: 'Can read and edit all metadata.', editable: false };
    await ingest(EDITOR, 'dataHubRoleInfo', info);
    const { body } = await mds.graphql(
      `{ listRoles(input: { start: 0, count: 10 }) { roles { name aspects(input: { aspectNames: ["dataHubRoleInfo"] }) { aspectName payload } } } }`,
    );
    expect(body.errors).toBeUndefined();
    const byName = Object.fromEntries((body.data.listRoles.roles as any[]).map((r) => [r.name, r.aspects]));
    expect(byName.Editor.map((a: any) => [a.aspectName, JSON.parse(a.payload)])).toEqual([['dataHubRoleInfo', info]]);
    expect(byName.Reader).toEqual([]);
  });
});
