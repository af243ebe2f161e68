import { describe, expect, it } from 'vitest';
import { ALL_PRIVILEGES, Privilege, PRIVILEGE_INFO, ROLE_URNS, ROOT_ACTOR_URN, SYSTEM_ACTOR_URN } from '../src/index';
import { bearer, openTempDatabase, setup, SYSTEM_CLIENT, tempDir } from './helpers';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const plain = `${SYSTEM_CLIENT.id}:${SYSTEM_CLIENT.secret}`;

describe('system client (Basic)', () => {
  it.each([
    ['plain, as DataHub clients send it', `Basic ${plain}`],
    ['base64, as RFC 7617 has it', `Basic ${base64(plain)}`],
    ['with a lower-case scheme', `basic ${plain}`],
  ])('accepts the pair %s, as the system actor with every privilege', async (_case, header) => {
    const { auth } = await setup();
    const actor = await auth.service.authenticate(header);
    expect(actor?.urn).toBe(SYSTEM_ACTOR_URN);
    expect(actor?.privileges).toEqual(ALL_PRIVILEGES);
  });

  it.each([
    ['a wrong secret', `Basic ${SYSTEM_CLIENT.id}:wrong`],
    ['a wrong secret, base64', `Basic ${base64(`${SYSTEM_CLIENT.id}:wrong`)}`],
    ['a secret with extra characters', `Basic ${plain}x`],
    ['a secret prefix', `Basic ${plain.slice(0, -1)}`],
    ['a wrong id', `Basic someone:${SYSTEM_CLIENT.secret}`],
    ['no colon', `Basic ${SYSTEM_CLIENT.secret}`],
    ['nothing', 'Basic '],
  ])('refuses %s', async (_case, header) => {
    const { auth } = await setup();
    expect(await auth.service.authenticate(header)).toBeNull();
  });

  it('refuses Basic altogether when no system client is configured', async () => {
    const { auth } = await setup({ systemClient: undefined });
    expect(await auth.service.authenticate(`Basic ${plain}`)).toBeNull();
    expect(await auth.service.authenticate(`Basic ${base64(plain)}`)).toBeNull();
  });
});

describe('users and roles', () => {
  it('starts with the root user as Admin, on the first start only', async () => {
    const db = openTempDatabase();
    const first = await setup({ db });
    expect(first.auth.isFirstStart).toBe(true);
    expect(await first.auth.service.roles.of(ROOT_ACTOR_URN)).toBe(ROLE_URNS.Admin);
    expect((await setup({ db })).auth.isFirstStart).toBe(false);
  });

  it('keeps tokens and roles across restarts on the same file', async () => {
    const dir = tempDir();
    const first = await setup({ db: openTempDatabase(dir) });
    await first.auth.service.roles.assign(ROLE_URNS.Editor, ['urn:li:corpuser:eve']);
    const { accessToken } = await first.auth.service.tokens.create({ actorUrn: 'urn:li:corpuser:eve', duration: 'ONE_DAY', name: 'x' });
    await first.db.close();

    const second = await setup({ db: openTempDatabase(dir) });
    expect(second.auth.isFirstStart).toBe(false);
    expect((await second.auth.service.authenticate(bearer(accessToken)))?.urn).toBe('urn:li:corpuser:eve');
  });

  it('grants each role its privileges (spec 3, entities-api §11), and every user GENERATE_PERSONAL_ACCESS_TOKENS', async () => {
    const { auth } = await setup();
    const privilegesOf = async (role: string | null, user: string) => {
      await auth.service.roles.assign(role, [user]);
      const { accessToken } = await auth.service.tokens.create({ actorUrn: user, duration: 'ONE_DAY', name: user });
      return new Set((await auth.service.authenticate(bearer(accessToken)))!.privileges);
    };
    // Admin: every privilege of DataHub's PoliciesConfig, platform and resource ones.
    const admin = await privilegesOf(ROLE_URNS.Admin, 'urn:li:corpuser:ada');
    expect(admin).toEqual(new Set(Object.keys(PRIVILEGE_INFO)));
    expect(admin.size).toBe(97);
    expect(admin).toContain('MANAGE_POLICIES');
    expect(admin).toContain('EDIT_DEPRECATION_PRIVILEGE');
    // Editor and Reader: DataHub's default policies for the role and for all users (compared in full in default-policies.test.ts).
    const editor = await privilegesOf(ROLE_URNS.Editor, 'urn:li:corpuser:ed');
    expect(editor.size).toBe(43);
    for (const held of [
      'MANAGE_TAGS',
      'MANAGE_GLOSSARIES',
      'EDIT_ENTITY',
      'EDIT_LINEAGE',
      'VIEW_ENTITY_PAGE',
      'GENERATE_PERSONAL_ACCESS_TOKENS',
    ])
      expect(editor).toContain(held);
    for (const withheld of ['MANAGE_POLICIES', 'MANAGE_ACCESS_TOKENS', 'DELETE_ENTITY', 'EDIT_ENTITY_OWNERS', 'CREATE_TAGS'])
      expect(editor).not.toContain(withheld);
    const reader = await privilegesOf(ROLE_URNS.Reader, 'urn:li:corpuser:rita');
    expect(reader).toEqual(
      new Set([
        'GENERATE_PERSONAL_ACCESS_TOKENS',
        'VIEW_ANALYTICS',
        'VIEW_ENTITY_PAGE',
        'VIEW_DATASET_PROFILE',
        'VIEW_DATASET_USAGE',
        'VIEW_DATASET_OPERATIONS',
        'VIEW_STRUCTURED_PROPERTIES_PAGE',
        'GET_ENTITY_PRIVILEGE',
        'GET_COUNTS_PRIVILEGE',
        'GET_TIMELINE_PRIVILEGE',
        'GET_TIMESERIES_ASPECT_PRIVILEGE',
        'SEARCH_PRIVILEGE',
        'ES_EXPLAIN_QUERY_PRIVILEGE',
      ]),
    );
    expect(await privilegesOf(null, 'urn:li:corpuser:nora')).toEqual(new Set(['GENERATE_PERSONAL_ACCESS_TOKENS']));
  });

  it('applies a role change to the very next call with the same token', async () => {
    const { auth } = await setup();
    const user = 'urn:li:corpuser:rita';
    await auth.service.roles.assign(ROLE_URNS.Reader, [user]);
    const { accessToken } = await auth.service.tokens.create({ actorUrn: user, duration: 'ONE_DAY', name: 'r' });
    expect((await auth.service.authenticate(bearer(accessToken)))!.privileges.has(Privilege.MANAGE_TAGS)).toBe(false);

    await auth.service.roles.assign(ROLE_URNS.Editor, [user]);
    expect((await auth.service.authenticate(bearer(accessToken)))!.privileges.has(Privilege.MANAGE_TAGS)).toBe(true);

    await auth.service.roles.assign(null, [user]);
    expect([...(await auth.service.authenticate(bearer(accessToken)))!.privileges]).toEqual([Privilege.GENERATE_PERSONAL_ACCESS_TOKENS]);
  });

  it('refuses unknown roles and malformed or reserved users', async () => {
    const { auth } = await setup();
    await expect(auth.service.roles.assign('urn:li:dataHubRole:Owner', ['urn:li:corpuser:x'])).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("unknown role 'urn:li:dataHubRole:Owner'"),
    });
    await expect(auth.service.roles.assign(ROLE_URNS.Admin, ['x'])).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("Field 'actors'"),
    });
    await expect(auth.service.roles.assign(ROLE_URNS.Admin, [SYSTEM_ACTOR_URN])).rejects.toMatchObject({ status: 400 });
    expect(await auth.service.roles.of('urn:li:corpuser:x')).toBeUndefined();
  });

  it('lists the three fixed roles', async () => {
    const { auth } = await setup();
    expect(auth.service.roles.list().map((r) => r.urn)).toEqual([ROLE_URNS.Admin, ROLE_URNS.Editor, ROLE_URNS.Reader]);
  });
});
