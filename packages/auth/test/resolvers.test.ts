import { buildApiSchema, FORBIDDEN_MESSAGE, type ApiContext } from '@mds/schema';
import { graphql, type GraphQLSchema } from 'graphql';
import { beforeEach, describe, expect, it } from 'vitest';
import { ASSIGN_ROLE_FORBIDDEN_MESSAGE, ROLE_URNS, ROOT_ACTOR_URN, SYSTEM_ACTOR_URN } from '../src/index';
import { bearer, setup, SYSTEM_CLIENT, type Fixture } from './helpers';

const EDITOR = 'urn:li:corpuser:ed';
const READER = 'urn:li:corpuser:rita';
const OTHER_READER = 'urn:li:corpuser:otto';

type Who = 'admin' | 'editor' | 'reader' | 'otherReader' | 'system';

let fixture: Fixture;
let schema: GraphQLSchema;
const tokens = {} as Record<Exclude<Who, 'system'>, { accessToken: string; id: string }>;

/** Authenticates as the host would on each request, so contexts carry the caller's current privileges. */
async function contextOf(who: Who): Promise<ApiContext> {
  const header = who === 'system' ? `Basic ${SYSTEM_CLIENT.id}:${SYSTEM_CLIENT.secret}` : bearer(tokens[who].accessToken);
  const actor = await fixture.auth.service.authenticate(header);
  if (!actor) throw new Error(`${who} did not authenticate`);
  return { actor, requestId: 'test' };
}

async function run(who: Who, source: string, variableValues?: Record<string, unknown>) {
  return graphql({ schema, source, variableValues, contextValue: await contextOf(who) });
}

const forbiddenError = (message = FORBIDDEN_MESSAGE) => [
  expect.objectContaining({ message, extensions: { code: 403, type: 'UNAUTHORIZED' } }),
];
const badRequest = (text: string) => [
  expect.objectContaining({ message: expect.stringContaining(text), extensions: { code: 400, type: 'BAD_REQUEST' } }),
];

const CREATE = `mutation($input: CreateAccessTokenInput!) {
  createAccessToken(input: $input) { accessToken metadata { urn type id name description actorUrn ownerUrn createdAt expiresAt } }
}`;
const LIST = `query($input: ListAccessTokenInput!) {
  listAccessTokens(input: $input) { start count total tokens { id name actorUrn ownerUrn } }
}`;
const REVOKE = 'mutation($id: String!) { revokeAccessToken(tokenId: $id) }';
const ASSIGN = 'mutation($input: BatchAssignRoleInput!) { batchAssignRole(input: $input) }';

const createFor = (actorUrn: string, extra: Record<string, unknown> = {}) => ({
  input: { type: 'PERSONAL', actorUrn, duration: 'ONE_DAY', name: 'token', ...extra },
});

beforeEach(async () => {
  fixture = await setup();
  schema = buildApiSchema([fixture.auth.module]);
  await fixture.auth.service.roles.assign(ROLE_URNS.Editor, [EDITOR]);
  await fixture.auth.service.roles.assign(ROLE_URNS.Reader, [READER, OTHER_READER]);
  const mint = (actorUrn: string, name: string) => fixture.auth.service.tokens.create({ actorUrn, duration: 'ONE_DAY', name });
  tokens.admin = await mint(ROOT_ACTOR_URN, 'admin');
  tokens.editor = await mint(EDITOR, 'editor');
  tokens.reader = await mint(READER, 'reader');
  tokens.otherReader = await mint(OTHER_READER, 'other reader');
});

describe('createAccessToken', () => {
  it.each<Who>(['admin', 'editor', 'reader'])('lets the %s create a token for themselves', async (who) => {
    const self = (await contextOf(who)).actor.urn;
    const result = await run(who, CREATE, createFor(self, { name: 'mine', description: 'd' }));
    expect(result.errors).toBeUndefined();
    const created = (result.data as any).createAccessToken;
    expect(created.metadata).toMatchObject({ type: 'ACCESS_TOKEN', name: 'mine', description: 'd', actorUrn: self, ownerUrn: self });
    expect(created.metadata.urn).toBe(`urn:li:dataHubAccessToken:${created.metadata.id}`);
    expect(created.metadata.expiresAt - created.metadata.createdAt).toBe(24 * 3_600_000);
    expect((await fixture.auth.service.authenticate(bearer(created.accessToken)))?.urn).toBe(self);
  });

  it.each<Who>(['editor', 'reader'])('refuses the %s a token for someone else, the root user included', async (who) => {
    for (const target of [OTHER_READER, ROOT_ACTOR_URN]) {
      const result = await run(who, CREATE, createFor(target));
      expect(result.errors).toEqual(forbiddenError());
      expect(result.data).toEqual({ createAccessToken: null });
    }
    expect(
      (await fixture.auth.service.tokens.list({ filters: [{ field: 'actorUrn', values: [ROOT_ACTOR_URN], negated: false }] })).total,
    ).toBe(1);
  });

  it.each<Who>(['admin', 'system'])(
    'lets the %s (MANAGE_ACCESS_TOKENS) create for another user, recording itself as owner',
    async (who) => {
      const result = await run(who, CREATE, createFor(READER));
      expect(result.errors).toBeUndefined();
      const ownerUrn = who === 'admin' ? ROOT_ACTOR_URN : SYSTEM_ACTOR_URN;
      expect((result.data as any).createAccessToken.metadata).toMatchObject({ actorUrn: READER, ownerUrn });
    },
  );

  it('answers 400 for a malformed actor urn, an unknown user and NO_EXPIRY', async () => {
    expect((await run('admin', CREATE, createFor('rita'))).errors).toEqual(badRequest("Field 'actorUrn'"));
    expect((await run('reader', CREATE, createFor('urn:li:corpuser:'))).errors).toEqual(badRequest("Field 'actorUrn'"));
    expect((await run('admin', CREATE, createFor('urn:li:corpuser:ghost'))).errors).toEqual(
      badRequest('no user urn:li:corpuser:ghost exists'),
    );
    expect((await run('reader', CREATE, createFor(READER, { duration: 'NO_EXPIRY' }))).errors).toEqual(
      badRequest('ACCESS_TOKEN_ALLOW_NO_EXPIRY'),
    );
  });

  it('checks privileges before telling whether a user exists', async () => {
    expect((await run('reader', CREATE, createFor('urn:li:corpuser:ghost'))).errors).toEqual(forbiddenError());
  });
});

describe('listAccessTokens', () => {
  const ownedBy = (urn: string, negated = false) => ({ input: { filters: [{ field: 'ownerUrn', values: [urn], negated }] } });

  it('lets a manager list every token', async () => {
    const result = await run('admin', LIST, { input: {} });
    expect(result.errors).toBeUndefined();
    expect((result.data as any).listAccessTokens).toMatchObject({ start: 0, count: 4, total: 4 });
  });

  it('lets a reader list only their own tokens, by filtering ownerUrn on themselves', async () => {
    await run('reader', CREATE, createFor(READER, { name: 'second' }));
    const result = await run('reader', LIST, ownedBy(READER));
    expect(result.errors).toBeUndefined();
    const listed = (result.data as any).listAccessTokens;
    expect(listed.total).toBe(2);
    expect(listed.tokens.every((t: { ownerUrn: string }) => t.ownerUrn === READER)).toBe(true);
  });

  it.each([
    ['no filter', { input: {} }],
    ["someone else's tokens", ownedBy(OTHER_READER)],
    ['a negated filter on themselves', ownedBy(READER, true)],
    ['themselves and someone else', { input: { filters: [{ field: 'ownerUrn', values: [READER, OTHER_READER] }] } }],
    ['an actorUrn filter on themselves', { input: { filters: [{ field: 'actorUrn', values: [READER] }] } }],
  ])('refuses a reader listing with %s', async (_case, variables) => {
    expect((await run('reader', LIST, variables)).errors).toEqual(forbiddenError());
  });

  it('filters on actorUrn and ownerUrn, negated or not, and pages', async () => {
    await run('admin', CREATE, createFor(READER, { name: 'from admin' }));
    const byActor = await run('admin', LIST, { input: { filters: [{ field: 'actorUrn', values: [READER] }] } });
    expect((byActor.data as any).listAccessTokens.tokens.map((t: { name: string }) => t.name).sort()).toEqual(['from admin', 'reader']);
    const notRoot = await run('admin', LIST, { input: { filters: [{ field: 'ownerUrn', value: ROOT_ACTOR_URN, negated: true }] } });
    expect((notRoot.data as any).listAccessTokens.total).toBe(3);
    const page = await run('admin', LIST, { input: { start: 3, count: 2 } });
    expect((page.data as any).listAccessTokens).toMatchObject({ start: 3, count: 2, total: 5 });
  });

  it('answers 400 for more than 1000 results and for unsupported filters', async () => {
    expect((await run('admin', LIST, { input: { count: 1001 } })).errors).toEqual(badRequest("Field 'count' must be at most 1000"));
    expect((await run('admin', LIST, { input: { start: -1 } })).errors).toEqual(badRequest("Field 'start'"));
    expect((await run('admin', LIST, { input: { filters: [{ field: 'name', values: ['x'] }] } })).errors).toEqual(
      badRequest("Filter field 'name'"),
    );
    expect((await run('admin', LIST, { input: { count: 1000 } })).errors).toBeUndefined();
  });
});

describe('revokeAccessToken', () => {
  it('lets a reader revoke their own token, refused on the next request', async () => {
    const result = await run('reader', REVOKE, { id: tokens.reader.id });
    expect(result).toEqual({ data: { revokeAccessToken: true } });
    expect(await fixture.auth.service.authenticate(bearer(tokens.reader.accessToken))).toBeNull();
  });

  it.each<Who>(['reader', 'editor'])("refuses the %s revoking someone else's token, which keeps working", async (who) => {
    const result = await run(who, REVOKE, { id: tokens.otherReader.id });
    expect(result.errors).toEqual(forbiddenError());
    expect(await fixture.auth.service.authenticate(bearer(tokens.otherReader.accessToken))).not.toBeNull();
  });

  it("lets a manager revoke anyone's token", async () => {
    expect((await run('admin', REVOKE, { id: tokens.reader.id })).data).toEqual({ revokeAccessToken: true });
    expect(await fixture.auth.service.authenticate(bearer(tokens.reader.accessToken))).toBeNull();
  });

  it('answers 404 naming an unknown token id', async () => {
    const result = await run('admin', REVOKE, { id: 'no-such-id' });
    expect(result.errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining("'no-such-id'"), extensions: { code: 404, type: 'NOT_FOUND' } }),
    ]);
  });
});

describe('getAccessTokenMetadata', () => {
  const GET = 'query($token: String!) { getAccessTokenMetadata(token: $token) { id actorUrn ownerUrn name } }';

  it('gives a manager the metadata of a raw token', async () => {
    const result = await run('admin', GET, { token: tokens.reader.accessToken });
    expect(result.data).toEqual({ getAccessTokenMetadata: { id: tokens.reader.id, actorUrn: READER, ownerUrn: READER, name: 'reader' } });
  });

  it('refuses non-managers, even for their own token', async () => {
    expect((await run('reader', GET, { token: tokens.reader.accessToken })).errors).toEqual(forbiddenError());
  });

  it('answers 404 for a token it does not store', async () => {
    expect((await run('admin', GET, { token: 'a.b.c' })).errors).toEqual([
      expect.objectContaining({ extensions: { code: 404, type: 'NOT_FOUND' } }),
    ]);
  });
});

describe('roles', () => {
  it.each<Who>(['reader', 'editor'])('refuses the %s assigning roles, themselves included, with DataHub message', async (who) => {
    const self = (await contextOf(who)).actor.urn;
    const result = await run(who, ASSIGN, { input: { roleUrn: ROLE_URNS.Admin, actors: [self] } });
    expect(result.errors).toEqual(forbiddenError(ASSIGN_ROLE_FORBIDDEN_MESSAGE));
    expect(await fixture.auth.service.roles.of(self)).not.toBe(ROLE_URNS.Admin);
  });

  it('lets an admin change a role, effective on the next request', async () => {
    expect((await contextOf('reader')).actor.privileges.has('MANAGE_TAGS')).toBe(false);
    const result = await run('admin', ASSIGN, { input: { roleUrn: ROLE_URNS.Editor, actors: [READER] } });
    expect(result).toEqual({ data: { batchAssignRole: true } });
    expect((await contextOf('reader')).actor.privileges.has('MANAGE_TAGS')).toBe(true);
  });

  it('creates unknown users, and removes roles with a null roleUrn', async () => {
    const newcomer = 'urn:li:corpuser:newcomer@example.com';
    expect((await run('system', ASSIGN, { input: { roleUrn: ROLE_URNS.Reader, actors: [newcomer] } })).errors).toBeUndefined();
    expect(await fixture.auth.service.roles.of(newcomer)).toBe(ROLE_URNS.Reader);
    expect((await run('admin', ASSIGN, { input: { roleUrn: null, actors: [newcomer, EDITOR] } })).errors).toBeUndefined();
    expect(await fixture.auth.service.roles.of(newcomer)).toBeNull();
    expect((await contextOf('editor')).actor.privileges.has('MANAGE_TAGS')).toBe(false);
  });

  it('answers 400 for an unknown role or a malformed user, changing nothing', async () => {
    expect((await run('admin', ASSIGN, { input: { roleUrn: 'urn:li:dataHubRole:Root', actors: [READER] } })).errors).toEqual(
      badRequest("Field 'roleUrn'"),
    );
    expect((await run('admin', ASSIGN, { input: { roleUrn: ROLE_URNS.Admin, actors: [OTHER_READER, 'nobody'] } })).errors).toEqual(
      badRequest("Field 'actors'"),
    );
    expect(await fixture.auth.service.roles.of(OTHER_READER)).toBe(ROLE_URNS.Reader);
  });

  it('lists the roles to anyone, with a query and paging', async () => {
    const LIST_ROLES =
      'query($input: ListRolesInput!) { listRoles(input: $input) { start count total roles { urn type name description } } }';
    const all = await run('reader', LIST_ROLES, { input: {} });
    expect((all.data as any).listRoles).toMatchObject({ start: 0, count: 3, total: 3 });
    expect((all.data as any).listRoles.roles[0]).toEqual({
      urn: ROLE_URNS.Admin,
      type: 'DATAHUB_ROLE',
      name: 'Admin',
      description: 'Can do everything on the platform.',
    });
    const edit = await run('reader', LIST_ROLES, { input: { query: 'edit' } });
    expect((edit.data as any).listRoles.roles.map((r: { name: string }) => r.name)).toEqual(['Editor', 'Reader']);
    expect((await run('reader', LIST_ROLES, { input: { start: 1, count: 1 } })).data).toMatchObject({
      listRoles: { start: 1, count: 1, total: 3 },
    });
    expect((await run('reader', LIST_ROLES, { input: { count: 1001 } })).errors).toEqual(badRequest("Field 'count'"));
  });
});
