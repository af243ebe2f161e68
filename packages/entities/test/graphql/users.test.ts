import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { goldenGraphql } from './golden';
import { Privilege } from '@mds/auth';
import { readFileSync } from 'node:fs';
import { SYSTEM_ACTOR } from '../../src/index';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

const JDOE = 'urn:li:corpuser:jdoe';
const BARE = 'urn:li:corpuser:bare';
const ENGINEERS = 'urn:li:corpGroup:engineers';
const PLAIN = 'urn:li:corpGroup:plain';

/** Users and groups with every identity aspect DataHub's mappers read, and ones with only a key. */
async function people() {
  const api = await goldenGraphql(databases, []);
  const mcp = (entityType: string, entityUrn: string, aspectName: string, value: unknown) => ({
    proposal: { entityType, entityUrn, changeType: 'UPSERT', aspectName, aspect: { value: JSON.stringify(value) } },
    place: { action: 'test', path: aspectName },
  });
  await api.service.ingest(
    SYSTEM_ACTOR,
    [
      mcp('corpuser', JDOE, 'corpUserInfo', {
        active: true,
        displayName: 'Jane Doe',
        email: 'jdoe@example.com',
        title: 'Engineer',
        managerUrn: 'urn:li:corpuser:boss',
        departmentId: 42,
        departmentName: 'Data',
        firstName: 'Jane',
        lastName: 'Doe',
        fullName: 'Jane Doe',
        countryCode: 'NZ',
        customProperties: { floor: '3' },
      }),
      mcp('corpuser', JDOE, 'corpUserEditableInfo', {
        aboutMe: 'Hi',
        teams: ['core'],
        skills: ['sql'],
        pictureLink: 'https://example.com/jdoe.png',
        slack: '@jdoe',
        phone: '123',
        platforms: ['urn:li:dataPlatform:hive'],
      }),
      mcp('corpuser', JDOE, 'corpUserStatus', { status: 'SUSPENDED', lastModified: { time: 1, actor: 'urn:li:corpuser:datahub' } }),
      mcp('corpuser', JDOE, 'corpUserCredentials', { salt: 'c2FsdA==', hashedPassword: 'aGFzaA==' }),
      mcp('corpuser', JDOE, 'corpUserSettings', {
        appearance: { showSimplifiedHomepage: true, showThemeV2: true },
        views: { defaultView: 'urn:li:dataHubView:mine' },
      }),
      mcp('corpuser', JDOE, 'globalTags', { tags: [{ tag: 'urn:li:tag:staff' }] }),
      mcp('corpuser', BARE, 'corpUserKey', { username: 'bare' }),
      mcp('corpGroup', ENGINEERS, 'corpGroupInfo', {
        displayName: 'Engineers',
        description: 'Builders',
        email: 'eng@example.com',
        slack: '#eng',
        admins: [JDOE],
        members: [JDOE, BARE],
        groups: [],
      }),
      mcp('corpGroup', ENGINEERS, 'corpGroupEditableInfo', { description: 'Edited', pictureLink: 'https://example.com/eng.png' }),
      mcp('corpGroup', ENGINEERS, 'origin', { type: 'EXTERNAL', externalType: 'okta' }),
      mcp('corpGroup', PLAIN, 'corpGroupKey', { name: 'plain' }),
    ],
    { batch: true },
  );
  return api;
}

describe("Users and groups, as DataHub's CorpUserMapper and CorpGroupMapper answer them", () => {
  it("a user's page: info and properties from corpUserInfo, editable fields, status, native sign-in, settings", async () => {
    const { query } = await people();
    const data = await query(
      `query ($urn: String!) {
        corpUser(urn: $urn) {
          urn type username exists isNativeUser status
          info { active displayName email title manager { urn username } departmentId departmentName firstName lastName fullName countryCode customProperties { key value } }
          properties { displayName manager { urn } customProperties { key value } }
          editableProperties { aboutMe teams skills pictureLink slack phone email displayName title platforms { urn } }
          editableInfo { aboutMe }
          settings { appearance { showSimplifiedHomepage showThemeV2 } views { defaultView { urn } } homePage { dismissedAnnouncementUrns } }
          tags { tags { tag { urn } } }
          globalTags { tags { tag { urn } } }
        }
      }`,
      { urn: JDOE },
    );
    expect(data.corpUser).toEqual({
      urn: JDOE,
      type: 'CORP_USER',
      username: 'jdoe',
      exists: true,
      isNativeUser: true,
      status: 'SUSPENDED',
      info: {
        active: true,
        displayName: 'Jane Doe',
        email: 'jdoe@example.com',
        title: 'Engineer',
        manager: { urn: 'urn:li:corpuser:boss', username: 'boss' },
        departmentId: 42,
        departmentName: 'Data',
        firstName: 'Jane',
        lastName: 'Doe',
        fullName: 'Jane Doe',
        countryCode: 'NZ',
        // The older face leaves the custom properties out, as DataHub's CorpUserInfoMapper does.
        customProperties: null,
      },
      properties: { displayName: 'Jane Doe', manager: { urn: 'urn:li:corpuser:boss' }, customProperties: [{ key: 'floor', value: '3' }] },
      editableProperties: {
        aboutMe: 'Hi',
        teams: ['core'],
        skills: ['sql'],
        pictureLink: 'https://example.com/jdoe.png',
        slack: '@jdoe',
        phone: '123',
        email: null,
        displayName: null,
        title: null,
        platforms: [{ urn: 'urn:li:dataPlatform:hive' }],
      },
      editableInfo: null,
      settings: {
        appearance: { showSimplifiedHomepage: true, showThemeV2: true },
        views: { defaultView: { urn: 'urn:li:dataHubView:mine' } },
        homePage: null,
      },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:staff' } }] },
      globalTags: { tags: [{ tag: { urn: 'urn:li:tag:staff' } }] },
    });
  });

  it('a user with only a key: no info, no status, not known as native, default appearance settings', async () => {
    const { query } = await people();
    const data = await query(
      `{ corpUser(urn: "${BARE}") { username exists isNativeUser status info { active } properties { active } editableProperties { aboutMe }
         settings { appearance { showSimplifiedHomepage showThemeV2 } views { defaultView { urn } } } } }`,
    );
    expect(data.corpUser).toEqual({
      username: 'bare',
      exists: true,
      isNativeUser: null,
      status: null,
      info: null,
      properties: null,
      editableProperties: null,
      settings: { appearance: { showSimplifiedHomepage: false, showThemeV2: null }, views: null },
    });
  });

  it("a group's page: properties and info from corpGroupInfo, members as users, editable fields, origin", async () => {
    const { query } = await people();
    const data = await query(
      `{ engineers: corpGroup(urn: "${ENGINEERS}") {
           urn type name exists
           origin { type externalType }
           info { displayName description email admins { urn username } members { urn } groups }
           properties { displayName description email slack }
           editableProperties { description slack email pictureLink }
         }
         plain: corpGroup(urn: "${PLAIN}") { name exists origin { type externalType } info { displayName } properties { displayName } }
         user: corpGroup(urn: "${JDOE}") { urn } }`,
    );
    expect(data).toEqual({
      engineers: {
        urn: ENGINEERS,
        type: 'CORP_GROUP',
        name: 'engineers',
        exists: true,
        origin: { type: 'EXTERNAL', externalType: 'okta' },
        info: {
          displayName: 'Engineers',
          description: 'Builders',
          email: 'eng@example.com',
          admins: [{ urn: JDOE, username: 'jdoe' }],
          members: [{ urn: JDOE }, { urn: BARE }],
          groups: [],
        },
        properties: { displayName: 'Engineers', description: 'Builders', email: 'eng@example.com', slack: '#eng' },
        editableProperties: { description: 'Edited', slack: null, email: null, pictureLink: 'https://example.com/eng.png' },
      },
      // No origin aspect: DataHub's mapper answers UNKNOWN.
      plain: { name: 'plain', exists: true, origin: { type: 'UNKNOWN', externalType: null }, info: null, properties: null },
      user: null,
    });
  });
});

// The UI's own mutation (datahub-web-react's user.graphql, fixture copied in apps/server/test/fixtures).
const UPDATE_USER_STATUS =
  readFileSync(new URL('../../../../apps/server/test/fixtures/datahub-web-react/graphql/user.graphql', import.meta.url), 'utf8')
    .split('\nmutation ')
    .map((part) => `mutation ${part}`)
    .find((part) => part.startsWith('mutation updateUserStatus('))!
    .split('\n}')[0]! + '\n}';

describe("updateUserStatus, as DataHub's UpdateUserStatusResolver writes it", () => {
  const admin = {
    actor: { urn: 'urn:li:corpuser:admin', privileges: new Set<string>([Privilege.MANAGE_USERS_AND_GROUPS]) },
    requestId: 'test',
  };
  const editor = { actor: { urn: 'urn:li:corpuser:eddie', privileges: new Set<string>([Privilege.EDIT_ENTITY]) }, requestId: 'test' };

  it('an actor with MANAGE_USERS_AND_GROUPS sets corpUserStatus, stamped with the actor; the user reads it back', async () => {
    const { run, service } = await people();
    const result = await run(UPDATE_USER_STATUS, { urn: BARE, status: 'SUSPENDED' }, { context: admin });
    expect(result).toEqual({ data: { updateUserStatus: BARE } });
    const stored = await service.reader(SYSTEM_ACTOR, { api: 'graphql' }).get(BARE, 'corpUserStatus');
    expect(stored?.value).toEqual({ status: 'SUSPENDED', lastModified: { time: 1_700_000_000_000, actor: 'urn:li:corpuser:admin' } });
    // Each read is a request of its own (a request's reads are cached for that request).
    const statusOf = async (urn: string) =>
      (await run(`{ corpUser(urn: "${urn}") { status } }`, undefined, { context: { ...admin, requestId: 'read' } })).data;
    expect(await statusOf(BARE)).toEqual({ corpUser: { status: 'SUSPENDED' } });
    expect(await run(UPDATE_USER_STATUS, { urn: BARE, status: 'ACTIVE' }, { context: admin })).toEqual({
      data: { updateUserStatus: BARE },
    });
    expect(await statusOf(BARE)).toEqual({ corpUser: { status: 'ACTIVE' } });
  });

  it("is refused with DataHub's text without the privilege, and a urn that is not a user's is a clear error", async () => {
    const { run, query } = await people();
    const refused = await run(UPDATE_USER_STATUS, { urn: JDOE, status: 'ACTIVE' }, { context: editor });
    expect(refused.errors?.[0]?.message).toBe('Unauthorized to perform this action. Please contact your DataHub administrator.');
    expect((await query(`{ corpUser(urn: "${JDOE}") { status } }`)).corpUser).toEqual({ status: 'SUSPENDED' });
    const wrong = await run(UPDATE_USER_STATUS, { urn: ENGINEERS, status: 'ACTIVE' }, { context: admin });
    expect(wrong.errors?.[0]?.message).toBe(`Invalid user urn: ${ENGINEERS}`);
  });
});
