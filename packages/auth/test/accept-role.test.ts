import { buildApiSchema, type ApiContext } from '@mds/schema';
import { graphql, type GraphQLSchema } from 'graphql';
import { beforeEach, describe, expect, it } from 'vitest';
import { Privilege, ROLE_URNS, ROOT_ACTOR_URN } from '../src/index';
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
  return { actor, requestId: 'accept-role' };
}

/** The UI's own operation with the variables its page sends. */
async function runUi(name: string, placeholders: Record<string, unknown>, as: string | 'system') {
  const { source, variableValues } = uiCall(name, placeholders);
  return graphql({ schema, source, variableValues, contextValue: await contextOf(as) });
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
