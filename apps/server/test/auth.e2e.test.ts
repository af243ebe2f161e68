import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient } from './support/api-client';
import { startMds, type Mds } from './support/mds';

// Who may do what with tokens and roles, over HTTP with the real composition (DataHub's rules, spec 2–3).
const ALICE = 'urn:li:corpuser:alice'; // Admin
const EDDIE = 'urn:li:corpuser:eddie'; // Editor
const RITA = 'urn:li:corpuser:rita'; // Reader
const FORBIDDEN = 'Unauthorized to perform this action. Please contact your DataHub administrator.';

const CREATE = `mutation($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken metadata { id actorUrn ownerUrn name } } }`;
const LIST = `query($input: ListAccessTokenInput!) { listAccessTokens(input: $input) { total tokens { id actorUrn } } }`;
const REVOKE = `mutation($id: String!) { revokeAccessToken(tokenId: $id) }`;
const ASSIGN = `mutation($role: String, $actors: [String!]!) { batchAssignRole(input: { roleUrn: $role, actors: $actors }) }`;
const ME = `{ me { corpUser { urn username } platformPrivileges { manageTags createTags generatePersonalAccessTokens manageTokens } } }`;

let mds: Mds;
let tokens: Record<'admin' | 'editor' | 'reader', string>;
const SYSTEM = 'Basic ci-client:ci-secret-0123456789';

beforeAll(async () => {
  mds = await startMds({ DATAHUB_SYSTEM_CLIENT_ID: 'ci-client', DATAHUB_SYSTEM_CLIENT_SECRET: 'ci-secret-0123456789' });
  tokens = {
    admin: await mds.tokenFor(ALICE, 'urn:li:dataHubRole:Admin'),
    editor: await mds.tokenFor(EDDIE, 'urn:li:dataHubRole:Editor'),
    reader: await mds.tokenFor(RITA, 'urn:li:dataHubRole:Reader'),
  };
});
afterAll(() => mds?.close());

const createFor = (actorUrn: string, token: string) =>
  mds.graphql(CREATE, { input: { type: 'PERSONAL', actorUrn, duration: 'ONE_HOUR', name: 'n', description: 'd' } }, token);

/** GraphQL over HTTP with `authorization` as it is sent (the system client's Basic credentials by default). */
const graphqlAs = (query: string, variables: Record<string, unknown> = {}, authorization = SYSTEM) =>
  apiClient(mds.url, authorization).graphql(query, variables);

describe('createAccessToken', () => {
  it.each([
    ['admin', ALICE],
    ['editor', EDDIE],
    ['reader', RITA],
  ] as const)('%s may mint a token for themself, and it works', async (who, urn) => {
    const { status, body } = await createFor(urn, tokens[who]);
    expect(status).toBe(200);
    expect(body.data.createAccessToken.metadata).toMatchObject({ actorUrn: urn, ownerUrn: urn, name: 'n' });
    const me = await mds.graphql(ME, {}, body.data.createAccessToken.accessToken);
    expect(me.body.data.me.corpUser).toEqual({ urn, username: urn.split(':').pop() });
  });

  it('admin may mint for another user; editor and reader may not', async () => {
    expect((await createFor(RITA, tokens.admin)).body.data.createAccessToken.metadata).toMatchObject({ actorUrn: RITA, ownerUrn: ALICE });
    for (const who of ['editor', 'reader'] as const) {
      const { body } = await createFor(ALICE, tokens[who]);
      expect(body.data.createAccessToken).toBeNull();
      expect(body.errors[0]).toMatchObject({ message: FORBIDDEN, extensions: { code: 403, type: 'UNAUTHORIZED' } });
    }
  });

  it('the system client may mint for anyone (Basic id:secret, plain or base64)', async () => {
    const plain = await graphqlAs(CREATE, { input: { type: 'PERSONAL', actorUrn: EDDIE, duration: 'ONE_DAY', name: 'sys' } });
    expect(plain.body.data.createAccessToken.metadata.actorUrn).toBe(EDDIE);
    const base64 = await graphqlAs(ME, {}, `Basic ${Buffer.from('ci-client:ci-secret-0123456789').toString('base64')}`);
    expect(base64.body.data.me.platformPrivileges.manageTokens).toBe(true);
  });

  it('a wrong system secret is a 401', async () => {
    expect((await graphqlAs(ME, {}, 'Basic ci-client:wrong')).status).toBe(401);
  });

  it('NO_EXPIRY is refused unless the operator allows it', async () => {
    const { body } = await mds.graphql(
      CREATE,
      { input: { type: 'PERSONAL', actorUrn: ALICE, duration: 'NO_EXPIRY', name: 'forever' } },
      tokens.admin,
    );
    expect(body.errors[0].extensions).toEqual({ code: 400, type: 'BAD_REQUEST' });
    expect(body.errors[0].message).toMatch(/NO_EXPIRY/);
  });
});

describe('listAccessTokens', () => {
  it('admin lists everyone; others only their own, by filtering on themselves', async () => {
    // Other tests mint tokens too: the admin's list holds at least these users', this test's newcomer included.
    const newcomer = 'urn:li:corpuser:listed';
    await mds.tokenFor(newcomer, null);
    const all = await mds.graphql(LIST, { input: { start: 0, count: 100 } }, tokens.admin);
    const listed = all.body.data.listAccessTokens.tokens.map((t: any) => t.actorUrn);
    expect(listed).toEqual(expect.arrayContaining([ALICE, EDDIE, RITA, newcomer, 'urn:li:corpuser:datahub']));

    const own = await mds.graphql(
      LIST,
      { input: { start: 0, count: 100, filters: [{ field: 'ownerUrn', values: [RITA] }] } },
      tokens.reader,
    );
    expect(own.body.data.listAccessTokens.total).toBeGreaterThan(0);
    expect(own.body.data.listAccessTokens.tokens.every((t: any) => t.actorUrn === RITA)).toBe(true);

    const everyone = await mds.graphql(LIST, { input: { start: 0, count: 100 } }, tokens.reader);
    expect(everyone.body.errors[0].message).toBe(FORBIDDEN);
  });

  it('refuses count over 1000 with a 400 naming the limit', async () => {
    // Only the total: a page of 1,001 tokens with their fields would cost more than the default budget of 2,000.
    const total = `query($input: ListAccessTokenInput!) { listAccessTokens(input: $input) { total } }`;
    const { body } = await mds.graphql(total, { input: { start: 0, count: 1001 } }, tokens.admin);
    expect(body.errors[0].message).not.toMatch(/^Query cost/);
    expect(body.errors[0].extensions.code).toBe(400);
    expect(body.errors[0].message).toMatch(/1000/);
  });
});

describe('revokeAccessToken', () => {
  it('the owner may revoke their token, and it stops working on the very next request', async () => {
    const minted = (await createFor(RITA, tokens.reader)).body.data.createAccessToken;
    expect((await mds.graphql(ME, {}, minted.accessToken)).status).toBe(200);
    expect((await mds.graphql(REVOKE, { id: minted.metadata.id }, tokens.reader)).body.data.revokeAccessToken).toBe(true);
    const after = await mds.graphql(ME, {}, minted.accessToken);
    expect(after.status).toBe(401);
    expect(after.body.errors[0].message).toBe('Unauthorized to perform this action.');
  });

  it("a reader or editor cannot revoke someone else's token; an admin can", async () => {
    const minted = (await createFor(ALICE, tokens.admin)).body.data.createAccessToken;
    for (const who of ['reader', 'editor'] as const) {
      expect((await mds.graphql(REVOKE, { id: minted.metadata.id }, tokens[who])).body.errors[0].message).toBe(FORBIDDEN);
    }
    const other = (await createFor(EDDIE, tokens.editor)).body.data.createAccessToken;
    expect((await mds.graphql(REVOKE, { id: other.metadata.id }, tokens.admin)).body.data.revokeAccessToken).toBe(true);
    expect((await mds.graphql(ME, {}, other.accessToken)).status).toBe(401);
    expect((await mds.graphql(ME, {}, minted.accessToken)).status).toBe(200);
  });
});

describe('roles', () => {
  it('only an admin may assign roles, and the change applies to the next request', async () => {
    const bob = 'urn:li:corpuser:bob';
    const bobToken = await mds.tokenFor(bob, 'urn:li:dataHubRole:Reader');
    expect((await mds.graphql(ME, {}, bobToken)).body.data.me.platformPrivileges.manageTags).toBe(false);

    for (const who of ['reader', 'editor'] as const) {
      const denied = await mds.graphql(ASSIGN, { role: 'urn:li:dataHubRole:Admin', actors: [bob] }, tokens[who]);
      expect(denied.body.errors[0].extensions).toEqual({ code: 403, type: 'UNAUTHORIZED' });
    }
    expect((await mds.graphql(ASSIGN, { role: 'urn:li:dataHubRole:Editor', actors: [bob] }, tokens.admin)).body.data.batchAssignRole).toBe(
      true,
    );
    expect((await mds.graphql(ME, {}, bobToken)).body.data.me.platformPrivileges).toEqual({
      manageTags: true,
      createTags: true,
      generatePersonalAccessTokens: true,
      manageTokens: false,
    });
  });

  it('lists the three roles', async () => {
    const { body } = await mds.graphql(`{ listRoles(input: { start: 0, count: 10 }) { total roles { urn name } } }`, {}, tokens.reader);
    expect(body.data.listRoles.roles.map((r: any) => r.name)).toEqual(['Admin', 'Editor', 'Reader']);
  });
});

describe('refused credentials answer 401 on every authenticated path', () => {
  const paths = ['/api/graphql', '/gms/operations?action=getIndexSizes', '/aspects?action=ingestProposal'];
  it.each(paths)('%s without a token', async (path) => {
    const { status } = await mds.post(path, { query: ME }, null);
    expect(status).toBe(401);
  });
  it.each(['Bearer not-a-jwt', 'Bearer ', 'Token abc', 'Basic Og==', 'Bearer a.b.c'])('%j', async (authorization) => {
    expect((await graphqlAs(ME, {}, authorization)).status).toBe(401);
  });
});
