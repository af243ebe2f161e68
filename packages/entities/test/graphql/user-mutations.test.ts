import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import type { ApiContext } from '@mds/schema';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/index';
import { upsert } from './edit-support';
import { goldenGraphql } from './golden';

// Users, groups and one's own settings as DataHub's resolvers write them (ListUsersResolver, ListGroupsResolver,
// CreateGroupResolver, Add/RemoveGroupMembersResolver with GroupService, RemoveUserResolver, RemoveGroupResolver,
// CorpUserType.update, CorpGroupType.update, UpdateUserSettingResolver, UpdateCorpUserViewsSettingsResolver,
// UpdateUserHomePageSettingsResolver), over a real SQLite store. The UI's own documents are sent end to end in
// apps/server/test/users-groups.e2e.test.ts.
const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const NOW = 1_700_000_000_000;
const JDOE = 'urn:li:corpuser:jdoe';
const ANNA = 'urn:li:corpuser:anna';
const BFOO = 'urn:li:corpGroup:bfoo';
const OKTA = 'urn:li:corpGroup:okta';
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,users,PROD)';
const UNAUTHORIZED = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

const as = (urn: string, ...privileges: string[]): ApiContext => ({ actor: { urn, privileges: new Set(privileges) }, requestId: urn });
const ADMIN = as('urn:li:corpuser:admin', Privilege.MANAGE_USERS_AND_GROUPS, Privilege.EDIT_ENTITY);
const NOBODY = as('urn:li:corpuser:nobody');

/** Two users (jdoe an ingested member of bfoo), an ingested group of no origin, an external one, a dataset owned by both. */
async function directory() {
  const api = await goldenGraphql(databases, [], { now: () => NOW });
  await api.service.ingest(
    SYSTEM_ACTOR,
    [
      upsert(JDOE, 'corpUserInfo', { active: true, displayName: 'John Doe', email: 'jdoe@example.com', managerUrn: ANNA }),
      upsert(JDOE, 'groupMembership', { groups: [BFOO] }),
      upsert(ANNA, 'corpUserInfo', { active: true, displayName: 'Anna Lyst' }),
      upsert(BFOO, 'corpGroupInfo', {
        displayName: 'Bfoo',
        admins: [ANNA],
        members: [JDOE],
        groups: [],
        created: { time: 5, actor: ANNA },
      }),
      upsert(OKTA, 'corpGroupInfo', { displayName: 'Okta group', admins: [], members: [], groups: [], created: { time: 9, actor: ANNA } }),
      upsert(OKTA, 'origin', { type: 'EXTERNAL', externalType: 'okta' }),
      upsert(DATASET, 'ownership', {
        owners: [
          { owner: JDOE, type: 'DATAOWNER' },
          { owner: BFOO, type: 'DATAOWNER' },
        ],
        lastModified: { time: 1, actor: ANNA },
      }),
    ],
    { batch: true },
  );
  const latest = async (urn: string, aspect: string) =>
    (await api.service.reader(SYSTEM_ACTOR, { api: 'graphql' }).latest([urn], [aspect])).get(urn)?.get(aspect)?.value;
  const send = async (context: ApiContext, source: string, variables?: Record<string, unknown>) => {
    const result = await api.run(source, variables, { context: { ...context, requestId: `${context.requestId}-${Math.random()}` } });
    return result.errors ? { error: result.errors[0]!.message } : result.data;
  };
  return { ...api, latest, send };
}

describe('listUsers and listGroups (ListUsersResolver, ListGroupsResolver)', () => {
  it('pages users found by a text query, and groups newest first; refused without MANAGE_USERS_AND_GROUPS', async () => {
    const { send } = await directory();
    const users = `query ($input: ListUsersInput!) { listUsers(input: $input) { start count total users { urn username info { displayName } } } }`;
    expect(await send(ADMIN, users, { input: { start: 0, count: 25 } })).toEqual({
      listUsers: {
        start: 0,
        count: 3,
        total: 3,
        users: [
          { urn: ANNA, username: 'anna', info: { displayName: 'Anna Lyst' } },
          // The root user a new store is seeded with.
          { urn: 'urn:li:corpuser:datahub', username: 'datahub', info: { displayName: 'Data Hub' } },
          { urn: JDOE, username: 'jdoe', info: { displayName: 'John Doe' } },
        ],
      },
    });
    expect(await send(ADMIN, users, { input: { query: 'john' } })).toMatchObject({ listUsers: { total: 1, users: [{ urn: JDOE }] } });
    expect(await send(ADMIN, users, { input: { start: 1, count: 1 } })).toMatchObject({ listUsers: { start: 1, count: 1, total: 3 } });
    expect(await send(ADMIN, users, { input: { count: -1 } })).toEqual({ error: expect.stringContaining('count') });
    expect(await send(NOBODY, users, { input: {} })).toEqual({ error: UNAUTHORIZED });

    const groups = `query ($input: ListGroupsInput!) { listGroups(input: $input) { start count total groups { urn name origin { type } } } }`;
    expect(await send(ADMIN, groups, { input: { start: 0, count: 25 } })).toEqual({
      listGroups: {
        start: 0,
        count: 2,
        total: 2,
        groups: [
          { urn: OKTA, name: 'okta', origin: { type: 'EXTERNAL' } },
          { urn: BFOO, name: 'bfoo', origin: { type: 'UNKNOWN' } },
        ],
      },
    });
    expect(await send(ADMIN, groups, { input: { start: 1, count: 1 } })).toMatchObject({
      listGroups: { count: 1, total: 2, groups: [{ urn: BFOO }] },
    });
    expect(await send(NOBODY, groups, { input: {} })).toEqual({ error: UNAUTHORIZED });
  });
});

describe('createGroup, addGroupMembers, removeGroupMembers (GroupService: native vs ingested membership)', () => {
  it('creates a native group stamped with its creator; the same id again is refused', async () => {
    const { send, latest } = await directory();
    const create = `mutation ($input: CreateGroupInput!) { createGroup(input: $input) }`;
    expect(await send(NOBODY, create, { input: { id: 'analysts', name: 'Analysts' } })).toEqual({ error: UNAUTHORIZED });
    expect(await send(ADMIN, create, { input: { id: 'analysts', name: 'Analysts', description: 'The team' } })).toEqual({
      createGroup: 'urn:li:corpGroup:analysts',
    });
    expect(await latest('urn:li:corpGroup:analysts', 'corpGroupInfo')).toEqual({
      displayName: 'Analysts',
      description: 'The team',
      groups: [],
      members: [],
      admins: [],
      created: { time: NOW, actor: ADMIN.actor.urn },
    });
    expect(await latest('urn:li:corpGroup:analysts', 'origin')).toEqual({ type: 'NATIVE' });
    expect(await send(ADMIN, create, { input: { id: 'analysts', name: 'Again' } })).toEqual({ error: 'This Group already exists!' });
    expect(await send(ADMIN, create, { input: { id: 'a,b)', name: 'Bad' } })).toEqual({ error: 'Invalid group id: "a,b)"' });
    // No id: a random one, as DataHub's.
    const random = (await send(ADMIN, create, { input: { name: 'Random' } })) as { createGroup: string };
    expect(random.createGroup).toMatch(/^urn:li:corpGroup:[0-9a-f-]{36}$/);
  });

  it('adding to a group of no origin first moves its ingested members to native membership; removing takes a member out', async () => {
    const { send, latest } = await directory();
    const add = `mutation ($input: AddGroupMembersInput!) { addGroupMembers(input: $input) }`;
    const remove = `mutation ($input: RemoveGroupMembersInput!) { removeGroupMembers(input: $input) }`;
    expect(await send(NOBODY, add, { input: { groupUrn: BFOO, userUrns: [ANNA] } })).toEqual({ error: UNAUTHORIZED });
    // EDIT_GROUP_MEMBERS on the group suffices (AuthorizationUtils.canEditGroupMembers).
    const membersEditor = as('urn:li:corpuser:ed', Privilege.EDIT_GROUP_MEMBERS);
    expect(await send(membersEditor, add, { input: { groupUrn: BFOO, userUrns: [ANNA] } })).toEqual({ addGroupMembers: true });
    expect(await latest(JDOE, 'groupMembership')).toEqual({ groups: [] });
    expect(await latest(JDOE, 'nativeGroupMembership')).toEqual({ nativeGroups: [BFOO] });
    expect(await latest(ANNA, 'nativeGroupMembership')).toEqual({ nativeGroups: [BFOO] });
    expect(await latest(BFOO, 'origin')).toEqual({ type: 'NATIVE' });
    const members = `{ corpGroup(urn: "${BFOO}") { relationships(input: { types: ["IsMemberOfGroup", "IsMemberOfNativeGroup"], direction: INCOMING }) { total relationships { type entity { urn } } } } }`;
    expect(await send(ADMIN, members)).toEqual({
      corpGroup: {
        relationships: {
          total: 2,
          relationships: expect.arrayContaining([
            { type: 'IsMemberOfNativeGroup', entity: { urn: JDOE } },
            { type: 'IsMemberOfNativeGroup', entity: { urn: ANNA } },
          ]),
        },
      },
    });
    expect(await send(ADMIN, remove, { input: { groupUrn: BFOO, userUrns: [JDOE] } })).toEqual({ removeGroupMembers: true });
    expect(await latest(JDOE, 'nativeGroupMembership')).toEqual({ nativeGroups: [] });
    expect(await latest(ANNA, 'nativeGroupMembership')).toEqual({ nativeGroups: [BFOO] });
  });

  it("refuses an external group's members, an absent group, an absent user, and urns of the wrong type", async () => {
    const { send, latest } = await directory();
    const add = `mutation ($input: AddGroupMembersInput!) { addGroupMembers(input: $input) }`;
    const remove = `mutation ($input: RemoveGroupMembersInput!) { removeGroupMembers(input: $input) }`;
    expect(await send(ADMIN, add, { input: { groupUrn: OKTA, userUrns: [ANNA] } })).toEqual({
      error: `Group ${OKTA} was ingested from an external provider and cannot have members manually added to it`,
    });
    expect(await send(ADMIN, remove, { input: { groupUrn: OKTA, userUrns: [ANNA] } })).toEqual({
      error: `Group ${OKTA} was ingested from an external provider and cannot have members manually removed from it`,
    });
    const absent = 'urn:li:corpGroup:absent';
    expect(await send(ADMIN, add, { input: { groupUrn: absent, userUrns: [ANNA] } })).toEqual({
      error: `Failed to add members to group ${absent}. Group does not exist.`,
    });
    expect(await send(ADMIN, remove, { input: { groupUrn: absent, userUrns: [ANNA] } })).toEqual({
      error: `Failed to add remove members from group ${absent}. Group does not exist.`,
    });
    expect(await send(ADMIN, add, { input: { groupUrn: BFOO, userUrns: ['urn:li:corpuser:ghost'] } })).toEqual({
      error: 'Failed to add member to group. User does not exist: urn:li:corpuser:ghost',
    });
    expect(await send(ADMIN, add, { input: { groupUrn: BFOO, userUrns: [DATASET] } })).toEqual({ error: `Invalid user urn: ${DATASET}` });
    expect(await send(ADMIN, add, { input: { groupUrn: JDOE, userUrns: [ANNA] } })).toEqual({ error: `Invalid group urn: ${JDOE}` });
    // Nothing was written by a refused call: bfoo keeps its ingested membership.
    expect(await latest(JDOE, 'groupMembership')).toEqual({ groups: [BFOO] });
    expect(await latest(ANNA, 'nativeGroupMembership')).toBeUndefined();
  });
});

describe('removeUser and removeGroup (RemoveUserResolver, RemoveGroupResolver, deleteEntityReferences)', () => {
  it('removing a user deletes it and takes it out of owners, group members and admins, and managers', async () => {
    const { send, latest, service } = await directory();
    expect(await send(NOBODY, `mutation { removeUser(urn: "${JDOE}") }`)).toEqual({ error: UNAUTHORIZED });
    expect(await send(ADMIN, `mutation { removeUser(urn: "${BFOO}") }`)).toEqual({ error: `Invalid user urn: ${BFOO}` });
    expect(await send(ADMIN, `mutation { removeUser(urn: "${ANNA}") }`)).toEqual({ removeUser: true });
    expect(await service.reader(SYSTEM_ACTOR, { api: 'graphql' }).exists(ANNA)).toBe(false);
    expect(await latest(JDOE, 'corpUserInfo')).toEqual({ active: true, displayName: 'John Doe', email: 'jdoe@example.com' });
    expect(await latest(BFOO, 'corpGroupInfo')).toMatchObject({ admins: [], members: [JDOE] });
    expect(await send(ADMIN, `mutation { removeUser(urn: "${JDOE}") }`)).toEqual({ removeUser: true });
    expect((await latest(DATASET, 'ownership'))?.owners).toEqual([{ owner: BFOO, type: 'DATAOWNER' }]);
    expect(await latest(BFOO, 'corpGroupInfo')).toMatchObject({ admins: [], members: [] });
  });

  it("removing a group deletes it and takes it out of its members' memberships and of owners", async () => {
    const { send, latest, service } = await directory();
    const add = `mutation ($input: AddGroupMembersInput!) { addGroupMembers(input: $input) }`;
    expect(await send(ADMIN, add, { input: { groupUrn: BFOO, userUrns: [ANNA] } })).toEqual({ addGroupMembers: true });
    expect(await send(NOBODY, `mutation { removeGroup(urn: "${BFOO}") }`)).toEqual({ error: UNAUTHORIZED });
    expect(await send(ADMIN, `mutation { removeGroup(urn: "${BFOO}") }`)).toEqual({ removeGroup: true });
    expect(await service.reader(SYSTEM_ACTOR, { api: 'graphql' }).exists(BFOO)).toBe(false);
    expect(await latest(ANNA, 'nativeGroupMembership')).toEqual({ nativeGroups: [] });
    expect(await latest(JDOE, 'nativeGroupMembership')).toEqual({ nativeGroups: [] });
    expect((await latest(DATASET, 'ownership'))?.owners).toEqual([{ owner: JDOE, type: 'DATAOWNER' }]);
  });
});

describe('updateCorpUserProperties and updateCorpGroupProperties (CorpUserType.update, CorpGroupType.update)', () => {
  const updateUser = `mutation ($urn: String!, $input: CorpUserUpdateInput!) { updateCorpUserProperties(urn: $urn, input: $input) { urn editableProperties { displayName title slack teams persona { urn } platforms { urn } } } }`;
  const updateGroup = `mutation ($urn: String!, $input: CorpGroupUpdateInput!) { updateCorpGroupProperties(urn: $urn, input: $input) { urn editableProperties { description slack email pictureLink } } }`;

  it('a user edits its own properties without any privilege, merged with what was stored; a persona must be one of four', async () => {
    const { send, latest } = await directory();
    const self = as(JDOE);
    expect(await send(self, updateUser, { urn: JDOE, input: { displayName: 'Johnny', teams: ['data'] } })).toEqual({
      updateCorpUserProperties: {
        urn: JDOE,
        editableProperties: { displayName: 'Johnny', title: null, slack: null, teams: ['data'], persona: null, platforms: null },
      },
    });
    const persona = 'urn:li:dataHubPersona:businessUser';
    const second = { personaUrn: persona, platformUrns: ['urn:li:dataPlatform:hive'], title: 'Analyst' };
    expect(await send(self, updateUser, { urn: JDOE, input: second })).toMatchObject({
      updateCorpUserProperties: {
        editableProperties: {
          displayName: 'Johnny',
          title: 'Analyst',
          persona: { urn: persona },
          platforms: [{ urn: 'urn:li:dataPlatform:hive' }],
        },
      },
    });
    expect(await latest(JDOE, 'corpUserEditableInfo')).toEqual({
      displayName: 'Johnny',
      teams: ['data'],
      persona,
      platforms: ['urn:li:dataPlatform:hive'],
      title: 'Analyst',
    });
    expect(await send(self, updateUser, { urn: JDOE, input: { personaUrn: 'urn:li:dataHubPersona:wizard' } })).toEqual({
      error: 'Provided persona urn urn:li:dataHubPersona:wizard does not exist',
    });
  });

  it("another user's properties ask EDIT_ENTITY, or EDIT_CONTACT_INFO for contacts and EDIT_USER_PROFILE for the profile", async () => {
    const { send, latest } = await directory();
    const contacts = as('urn:li:corpuser:hr', Privilege.EDIT_CONTACT_INFO);
    const profiles = as('urn:li:corpuser:pm', Privilege.EDIT_USER_PROFILE);
    expect(await send(contacts, updateUser, { urn: JDOE, input: { slack: 'jdoe' } })).toMatchObject({
      updateCorpUserProperties: { editableProperties: { slack: 'jdoe' } },
    });
    expect(await send(contacts, updateUser, { urn: JDOE, input: { title: 'Boss' } })).toEqual({ error: UNAUTHORIZED });
    expect(await send(profiles, updateUser, { urn: JDOE, input: { title: 'Lead' } })).toMatchObject({
      updateCorpUserProperties: { editableProperties: { title: 'Lead' } },
    });
    expect(await send(profiles, updateUser, { urn: JDOE, input: { slack: 'x', title: 'y' } })).toEqual({ error: UNAUTHORIZED });
    expect(await send(NOBODY, updateUser, { urn: JDOE, input: { skills: ['sql'] } })).toEqual({ error: UNAUTHORIZED });
    expect(await latest(JDOE, 'corpUserEditableInfo')).toEqual({ slack: 'jdoe', title: 'Lead' });
    expect(await send(ADMIN, updateUser, { urn: BFOO, input: { title: 'x' } })).toEqual({ error: `Invalid user urn: ${BFOO}` });
  });

  it("a group's properties: EDIT_ENTITY_DOCS for a description, EDIT_CONTACT_INFO for contacts, merged", async () => {
    const { send, latest } = await directory();
    const docs = as('urn:li:corpuser:writer', Privilege.EDIT_ENTITY_DOCS);
    const contacts = as('urn:li:corpuser:hr', Privilege.EDIT_CONTACT_INFO);
    expect(await send(docs, updateGroup, { urn: BFOO, input: { description: 'The analytics team' } })).toEqual({
      updateCorpGroupProperties: {
        urn: BFOO,
        editableProperties: { description: 'The analytics team', slack: null, email: null, pictureLink: null },
      },
    });
    expect(await send(docs, updateGroup, { urn: BFOO, input: { slack: '#x' } })).toEqual({ error: UNAUTHORIZED });
    expect(await send(contacts, updateGroup, { urn: BFOO, input: { email: 'analysts@example.com', slack: '#analysts' } })).toMatchObject({
      updateCorpGroupProperties: { editableProperties: { description: 'The analytics team', slack: '#analysts' } },
    });
    expect(await send(contacts, updateGroup, { urn: BFOO, input: { pictureLink: 'https://example.com/p.png' } })).toEqual({
      error: UNAUTHORIZED,
    });
    expect(await latest(BFOO, 'corpGroupEditableInfo')).toEqual({
      description: 'The analytics team',
      email: 'analysts@example.com',
      slack: '#analysts',
    });
  });
});

describe("one's own settings (UpdateUserSettingResolver, UpdateCorpUserViewsSettingsResolver, UpdateUserHomePageSettingsResolver)", () => {
  it('each writes the caller its own corpUserSettings, always with an appearance, and reads back as settings', async () => {
    const { send, latest } = await directory();
    const self = as(ANNA);
    const view = 'urn:li:dataHubView:mine';
    expect(await send(self, `mutation { updateCorpUserViewsSettings(input: { defaultView: "${view}" }) }`)).toEqual({
      updateCorpUserViewsSettings: true,
    });
    expect(await latest(ANNA, 'corpUserSettings')).toEqual({ appearance: { showSimplifiedHomepage: false }, views: { defaultView: view } });
    expect(await send(self, `mutation { updateUserSetting(input: { name: SHOW_THEME_V2, value: true }) }`)).toEqual({
      updateUserSetting: true,
    });
    expect(await send(self, `mutation { updateUserSetting(input: { name: SHOW_SIMPLIFIED_HOMEPAGE, value: true }) }`)).toEqual({
      updateUserSetting: true,
    });
    const template = 'urn:li:dataHubPageTemplate:mine';
    const post = 'urn:li:post:hello';
    const home = `mutation ($input: UpdateUserHomePageSettingsInput!) { updateUserHomePageSettings(input: $input) }`;
    expect(await send(self, home, { input: { pageTemplate: template, newDismissedAnnouncements: [post] } })).toEqual({
      updateUserHomePageSettings: true,
    });
    expect(await send(self, home, { input: { newDismissedAnnouncements: [post, 'urn:li:post:other'] } })).toEqual({
      updateUserHomePageSettings: true,
    });
    expect(await latest(ANNA, 'corpUserSettings')).toEqual({
      appearance: { showSimplifiedHomepage: true, showThemeV2: true },
      views: { defaultView: view },
      homePage: { pageTemplate: template, dismissedAnnouncements: [post, 'urn:li:post:other'] },
    });
    expect(await send(self, home, { input: { pageTemplate: template, removePageTemplate: true } })).toEqual({
      error: 'Invalid inputs: Cannot specify both pageTemplate and removePageTemplate.',
    });
    expect(await send(self, home, { input: { removePageTemplate: true } })).toEqual({ updateUserHomePageSettings: true });
    expect(await send(self, `mutation { updateCorpUserViewsSettings(input: {}) }`)).toEqual({ updateCorpUserViewsSettings: true });
    expect(await send(self, `mutation { updateCorpUserViewsSettings(input: { defaultView: "not-a-urn" }) }`)).toEqual({
      error: 'Invalid urn in defaultView: not-a-urn',
    });
    const settings = `{ corpUser(urn: "${ANNA}") { settings { appearance { showSimplifiedHomepage showThemeV2 } views { defaultView { urn } } homePage { pageTemplate { urn } dismissedAnnouncementUrns } } } }`;
    expect(await send(self, settings)).toEqual({
      corpUser: {
        settings: {
          appearance: { showSimplifiedHomepage: true, showThemeV2: true },
          views: { defaultView: null },
          homePage: { pageTemplate: null, dismissedAnnouncementUrns: [post, 'urn:li:post:other'] },
        },
      },
    });
    // Another user's settings are untouched: each caller writes only its own.
    expect(await latest(JDOE, 'corpUserSettings')).toBeUndefined();
  });
});
