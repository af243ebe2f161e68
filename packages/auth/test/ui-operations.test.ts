import { buildApiSchema, type ApiContext } from '@mds/schema';
import { graphql, type GraphQLSchema } from 'graphql';
import { beforeEach, describe, expect, it } from 'vitest';
import { FORBIDDEN_MESSAGE } from '@mds/schema';
import { DURATION_MS, Privilege, ROLE_URNS, ROOT_ACTOR_URN, SYSTEM_ACTOR_URN } from '../src/index';
import { bearer, setup, SYSTEM_CLIENT, type Fixture } from './helpers';
import { uiCall } from './ui';

const NEWCOMER = 'urn:li:corpuser:nina';
const READER = 'urn:li:corpuser:rita';

let fixture: Fixture;
let schema: GraphQLSchema;

async function contextOf(urn: string | 'system'): Promise<ApiContext> {
  const header =
    urn === 'system'
      ? `Basic ${SYSTEM_CLIENT.id}:${SYSTEM_CLIENT.secret}`
      : bearer((await fixture.auth.service.tokens.create({ actorUrn: urn, duration: 'ONE_DAY', name: 'test' })).accessToken);
  const actor = await fixture.auth.service.authenticate(header);
  if (!actor) throw new Error(`${urn} did not authenticate`);
  return { actor, requestId: 'ui-operations' };
}

/** The UI's own operation with the variables its page sends. */
async function runUi(name: string, placeholders: Record<string, unknown>, as: string | 'system' | ApiContext) {
  const { source, variableValues } = uiCall(name, placeholders);
  return graphql({ schema, source, variableValues, contextValue: typeof as === 'string' ? await contextOf(as) : as });
}

/** The invite token an Admin reads on the Users page (the UI's getInviteToken, ViewInviteTokenModal.tsx). */
async function inviteFor(roleUrn: string | null): Promise<string> {
  const result = await runUi('getInviteToken', { $ROLE_URN: roleUrn }, ROOT_ACTOR_URN);
  expect(result.errors).toBeUndefined();
  return (result.data!.getInviteToken as { inviteToken: string }).inviteToken;
}

const acceptAs = (urn: string | 'system', inviteToken: string) => runUi('acceptRole', { $INVITE_TOKEN: inviteToken }, urn);

beforeEach(async () => {
  fixture = await setup();
  schema = buildApiSchema([fixture.auth.module]);
  await fixture.auth.service.roles.assign(null, [NEWCOMER]);
  await fixture.auth.service.roles.assign(ROLE_URNS.Reader, [READER]);
});

describe("acceptRole, as DataHub's AcceptRoleResolver (the UI's mutations.graphql, SignUp.tsx's variables)", () => {
  it("gives the signed-in user the invite's role: from the next request on, the role's privileges are theirs", async () => {
    const invite = await inviteFor(ROLE_URNS.Editor);
    expect((await contextOf(NEWCOMER)).actor.privileges.has(Privilege.EDIT_ENTITY)).toBe(false);

    const result = await acceptAs(NEWCOMER, invite);
    expect(result).toEqual({ data: { acceptRole: true } });
    expect(await fixture.auth.service.roles.of(NEWCOMER)).toBe(ROLE_URNS.Editor);
    expect((await contextOf(NEWCOMER)).actor.privileges.has(Privilege.EDIT_ENTITY)).toBe(true);

    // The token is not used up: DataHub keeps it until an Admin creates a new one.
    expect(await acceptAs(READER, invite)).toEqual({ data: { acceptRole: true } });
    expect(await fixture.auth.service.roles.of(READER)).toBe(ROLE_URNS.Editor);
  });

  it("replaces the user's role, and an invite without a role removes it (DataHub writes an empty roleMembership)", async () => {
    expect((await acceptAs(READER, await inviteFor(ROLE_URNS.Admin))).errors).toBeUndefined();
    expect(await fixture.auth.service.roles.of(READER)).toBe(ROLE_URNS.Admin);
    expect((await acceptAs(READER, await inviteFor(null))).errors).toBeUndefined();
    expect(await fixture.auth.service.roles.of(READER)).toBeNull();
    expect((await contextOf(READER)).actor.privileges.has(Privilege.VIEW_ENTITY_PAGE)).toBe(false);
  });

  it('refuses an unknown token and one an Admin replaced (createInviteToken) with a 400, the role unchanged', async () => {
    const old = await inviteFor(ROLE_URNS.Admin);
    const created = await graphql({
      schema,
      ...uiCall('createInviteToken', { $ROLE_URN: ROLE_URNS.Admin }),
      contextValue: await contextOf(ROOT_ACTOR_URN),
    });
    expect((created.data!.createInviteToken as { inviteToken: string }).inviteToken).not.toBe(old);

    for (const token of [old, 'not-an-invite', '']) {
      const result = await acceptAs(READER, token);
      expect(result.data).toEqual({ acceptRole: null });
      expect(result.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining('Failed to accept role using invite token: the invite token is invalid'),
          extensions: { code: 400, type: 'BAD_REQUEST' },
        }),
      ]);
      expect(result.errors![0]!.message).not.toContain(old); // a token is never echoed into logs
    }
    expect(await fixture.auth.service.roles.of(READER)).toBe(ROLE_URNS.Reader);
  });

  it('refuses the system client (it holds no role) and leaves the root user its Admin role', async () => {
    const invite = await inviteFor(ROLE_URNS.Reader);
    const system = await acceptAs('system', invite);
    expect(system.errors?.[0]).toMatchObject({ message: expect.stringContaining('system client'), extensions: { code: 400 } });
    const root = await acceptAs(ROOT_ACTOR_URN, invite);
    expect(root.errors?.[0]).toMatchObject({ message: expect.stringContaining('keeps its Admin role'), extensions: { code: 400 } });
    expect(await fixture.auth.service.roles.of(ROOT_ACTOR_URN)).toBe(ROLE_URNS.Admin);
  });
});

describe("getAccessToken, as DataHub's GetAccessTokenResolver (the UI's auth.graphql with its variables)", () => {
  // The UI's variables ask for ONE_HOUR; a test may ask for another duration in its place.
  const getToken = (as: string | 'system' | ApiContext, me: string, duration = 'ONE_HOUR') =>
    runUi('getAccessToken', { $ME_URN: me, ONE_HOUR: duration }, as);
  const tokenOf = (result: Awaited<ReturnType<typeof getToken>>) => (result.data!.getAccessToken as { accessToken: string }).accessToken;

  it('gives any user a PERSONAL token for themselves: it authenticates as them, lasts the duration, lists and revokes', async () => {
    for (const user of [NEWCOMER, READER]) {
      const result = await getToken(user, user);
      expect(result.errors).toBeUndefined();
      expect((await fixture.auth.service.authenticate(bearer(tokenOf(result))))?.urn).toBe(user);
    }

    // The tokens page (the UI's listAccessTokens, filtered on the signed-in owner) shows it; revoking ends it at once.
    const token = tokenOf(await getToken(READER, READER, 'ONE_WEEK'));
    const listed = await runUi('listAccessTokens', { $ME_URN: READER }, READER);
    const tokens = (listed.data!.listAccessTokens as { tokens: Record<string, unknown>[] }).tokens;
    const mine = tokens.filter((t) => t.name === 'getAccessToken');
    expect(mine).toHaveLength(2);
    for (const t of mine)
      expect(t).toMatchObject({ actorUrn: READER, ownerUrn: READER, description: 'Generated by the getAccessToken query.' });
    expect(mine.map((t) => (t.expiresAt as number) - (t.createdAt as number)).sort()).toEqual([DURATION_MS.ONE_HOUR, DURATION_MS.ONE_WEEK]);
    const id = (await fixture.auth.service.tokens.list({ filters: [{ field: 'actorUrn', values: [READER], negated: false }] })).tokens.find(
      (t) => t.expiresAt! - t.createdAt === DURATION_MS.ONE_WEEK,
    )!.id;
    expect((await runUi('revokeAccessToken', { $ACCESS_TOKEN_ID: id }, READER)).errors).toBeUndefined();
    expect(await fixture.auth.service.authenticate(bearer(token))).toBeNull();
  });

  it('refuses a token for anyone else, even to an Admin (403, DataHub text), and to a caller without the privilege', async () => {
    for (const [as, target] of [
      [READER, NEWCOMER],
      [ROOT_ACTOR_URN, READER],
    ] as const) {
      const result = await getToken(as, target);
      expect(result).toMatchObject({ data: { getAccessToken: null }, errors: [{ message: FORBIDDEN_MESSAGE, extensions: { code: 403 } }] });
    }
    const withoutPrivilege: ApiContext = { actor: { urn: READER, privileges: new Set([Privilege.VIEW_ENTITY_PAGE]) }, requestId: 'x' };
    expect((await getToken(withoutPrivilege, READER)).errors?.[0]?.extensions).toMatchObject({ code: 403 });
    const stored = await fixture.auth.service.tokens.list({ filters: [{ field: 'actorUrn', values: [NEWCOMER, READER], negated: false }] });
    expect(stored.tokens.filter((t) => t.name === 'getAccessToken')).toEqual([]);
  });

  it('answers 400 for a malformed urn, the system client, and NO_EXPIRY the server does not allow', async () => {
    expect((await getToken(READER, 'rita')).errors?.[0]).toMatchObject({
      message: expect.stringContaining("Field 'actorUrn'"),
      extensions: { code: 400 },
    });
    expect((await getToken('system', SYSTEM_ACTOR_URN)).errors?.[0]).toMatchObject({
      message: expect.stringContaining('system client'),
      extensions: { code: 400 },
    });
    expect((await getToken(READER, READER, 'NO_EXPIRY')).errors?.[0]).toMatchObject({
      message: expect.stringContaining('ACCESS_TOKEN_ALLOW_NO_EXPIRY'),
      extensions: { code: 400 },
    });
  });
});
