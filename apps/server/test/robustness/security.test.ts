import { ApiError, UNKNOWN_ERROR_MESSAGE, defineAction, type Actor } from '@mds/schema';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { repositoryTypeDefs } from '@mds/schema/repository-sdl';
import { loadConfig } from '../../src/config';
import { startServer, type RunningServer } from '../../src/server';
import { apiClient, type ApiClient } from '../support/api-client';
import { freshDataDir, type ChildServer } from '../support/child';
import { closedPort } from '../support/fake-elasticsearch';
import { SYSTEM_AUTH, mintToken, spawnLive, systemClient } from '../support/live';
import { startMds, type Mds } from '../support/mds';
import { readDatabase } from '../support/sqlite-files';

// The security review of issue 7, each item as behaviour a user (or an attacker) can observe. Covered elsewhere and
// not repeated here: the signing key's length is checked in production (process.e2e.test.ts, "too short"); a
// reader or editor cannot mint tokens for others, assign roles or revoke others' tokens (auth.e2e.test.ts); a reader
// calling the three Rest.li operations gets DataHub's 403 texts (timeseries.e2e.test.ts, "privileges").

const FORBIDDEN = 'Unauthorized to perform this action. Please contact your DataHub administrator.';
const ME = '{ me { corpUser { urn } } }';

describe('secrets never reach the logs, even at LOG_LEVEL=trace', () => {
  const SIGNING_KEY = 'signing-key-marker-0123456789abcdefghijklmnop';
  const SALT = 'salt-marker-0123456789';
  const ES_PASSWORD = 'es-password-marker-42';
  let server: ChildServer;
  let api: ApiClient;
  const secrets: string[] = [SIGNING_KEY, SALT, ES_PASSWORD, SYSTEM_AUTH.slice('Basic '.length).split(':')[1]!];
  const lockedRequestId = 'locked-db-1';

  beforeAll(async () => {
    const DATA_DIR = freshDataDir('logs');
    server = await spawnLive({
      DATA_DIR,
      NODE_ENV: 'production',
      LOG_LEVEL: 'trace',
      DATAHUB_TOKEN_SERVICE_SIGNING_KEY: SIGNING_KEY,
      DATAHUB_TOKEN_SERVICE_SALT: SALT,
      ELASTICSEARCH_URL: `http://elastic:${ES_PASSWORD}@127.0.0.1:${await closedPort()}`,
      ELASTICSEARCH_TIMEOUT_MS: '300',
    });
    api = systemClient(server);
    const token = await mintToken(api, 'urn:li:corpuser:logged', 'urn:li:dataHubRole:Editor');
    const [header, payload, signature] = token.split('.');
    const forged = `${header}.${payload}.${signature!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`;
    secrets.push(token, signature!, forged, 'wrong-secret-marker-77', 'bearer-marker-not-a-jwt');

    const call = (authorization: string, body: unknown, path = '/api/graphql') => apiClient(server.url, authorization).post(path, body);
    expect((await call(`Bearer ${token}`, { query: ME })).status).toBe(200);
    expect(
      (await call(`bearer ${token}`, { query: `query($t: String!) { getAccessTokenMetadata(token: $t) { id } }`, variables: { t: token } }))
        .status,
    ).toBe(200);
    expect((await call(`Bearer ${forged}`, { query: ME })).status).toBe(401);
    expect((await call('Bearer bearer-marker-not-a-jwt', { query: ME })).status).toBe(401);
    expect((await call(SYSTEM_AUTH, { query: ME })).status).toBe(200);
    expect((await call(`Basic ${Buffer.from(SYSTEM_AUTH.slice(6)).toString('base64')}`, { query: ME })).status).toBe(200);
    secrets.push(Buffer.from(SYSTEM_AUTH.slice(6)).toString('base64'));
    expect((await call('Basic robustness-client:wrong-secret-marker-77', { query: ME })).status).toBe(401);
    expect((await call(`Bearer ${token}`, {}, '/gms/operations?action=getIndexSizes')).status).toBe(403);
    expect((await call(SYSTEM_AUTH, {}, '/gms/operations?action=getIndexSizes')).status).toBe(503); // the cluster is down
    const minted = await api.graphql(
      'mutation { createAccessToken(input: { type: PERSONAL, actorUrn: "urn:li:corpuser:logged", duration: ONE_HOUR, name: "t" }) { accessToken } }',
    );
    secrets.push(minted.body.data.createAccessToken.accessToken);

    // An internal failure while a token is on the request: entities.db (where tags live) locked by another process,
    // so the tag write fails.
    const db = new Database(join(DATA_DIR, 'entities.db'));
    db.exec('BEGIN IMMEDIATE');
    try {
      const res = await fetch(`${server.url}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-request-id': lockedRequestId },
        body: JSON.stringify({ query: 'mutation { createTag(input: { id: "locked", name: "locked" }) }' }),
      });
      expect(await res.json()).toEqual({
        data: { createTag: null },
        errors: [
          {
            message: UNKNOWN_ERROR_MESSAGE,
            locations: [{ line: 1, column: 12 }],
            path: ['createTag'],
            extensions: { code: 500, type: 'SERVER_ERROR' },
          },
        ],
      });
    } finally {
      db.exec('ROLLBACK');
      db.close();
    }
  }, 60_000);
  afterAll(() => server?.stop());

  it('no token, signing key, salt or password appears in stdout or stderr', async () => {
    expect(await server.stop()).toBe(0);
    const output = server.stdout() + server.stderr();
    expect(output).toMatch(/"msg":"request"/); // requests were logged, at trace level
    for (const secret of secrets) expect(output.includes(secret), `log contains ${secret.slice(0, 12)}…`).toBe(false);
  });

  it('the internal failure is in the log with its request id and cause', async () => {
    expect(await server.stop()).toBe(0); // the whole log is written once the process has exited
    const line = server
      .stdout()
      .split('\n')
      .find((l) => l.includes(`"requestId":"${lockedRequestId}"`) && l.includes('"level":50'));
    expect(line).toMatch(/database is locked/);
  });
});

describe('internal errors never leak SQL, stack traces or file paths', () => {
  const LEAKS = /SELECT|secret_column|\/var\/lib|node_modules|\.ts:\d|at \w+ \(|Error:/;
  const actor: Actor = { urn: 'urn:li:corpuser:tester', privileges: new Set() };
  const sqlError = () =>
    new Error('SqliteError: no such column: secret_column in "SELECT secret_column FROM tags WHERE urn = ?" (/var/lib/mds/data/mds.db)');
  const explode = defineAction({
    resource: 'operations',
    name: 'explode',
    params: z.object({ how: z.enum(['error', 'string', 'type']) }),
    handler: ({ how }) => {
      if (how === 'string') throw 'SELECT * FROM access_tokens';
      if (how === 'type') return (undefined as unknown as { x: { y: number } }).x.y;
      throw sqlError();
    },
  });
  const lines: string[] = [];
  let server: RunningServer;

  beforeAll(async () => {
    const logger = pino({ level: 'info', base: undefined }, { write: (line: string) => void lines.push(line) });
    server = await startServer(loadConfig({ PORT: '0' }), logger, {
      modules: [
        {
          name: 'broken',
          actions: [explode],
          // The API's SDL (every package's), answered by resolvers that fail.
          typeDefs: repositoryTypeDefs(),
          resolvers: {
            Query: {
              tag: () => Promise.reject(sqlError()),
              searchAcrossEntities: () => {
                throw 'SELECT * FROM tags /var/lib/mds';
              },
            },
            Mutation: { deleteTag: () => new ApiError('NOT_FOUND', 'Tag urn:li:tag:x does not exist') as never },
          },
        },
      ],
      authenticate: async (header) => {
        if (header === 'Bearer explode') throw new Error('ENOENT: no such file /var/lib/mds/secrets.json');
        return header === 'Bearer ok' ? actor : null;
      },
    });
  });
  afterAll(() => server?.close());

  const post = async (path: string, body: unknown, requestId: string, authorization = 'Bearer ok') => {
    const res = await fetch(server.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization, 'x-request-id': requestId },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    expect(text).not.toMatch(LEAKS);
    return { status: res.status, body: JSON.parse(text) };
  };
  const logged = (requestId: string) =>
    lines.filter((l) => l.includes(`"requestId":"${requestId}"`) && l.includes('"level":50')).join('\n');

  it.each([
    ['a resolver rejecting with an Error carrying SQL and a path', '{ tag(urn: "urn:li:tag:x") { urn } }', 'gql-1', /SELECT secret_column/],
    ['a resolver throwing a string', '{ searchAcrossEntities(input: { query: "*" }) { total } }', 'gql-2', /SELECT \* FROM tags/],
  ])('GraphQL: %s', async (_case, query, requestId, detail) => {
    const { status, body } = await post('/api/graphql', { query }, requestId);
    expect(status).toBe(200);
    expect(body.errors).toEqual([
      {
        message: UNKNOWN_ERROR_MESSAGE,
        locations: expect.any(Array),
        path: [expect.any(String)],
        extensions: { code: 500, type: 'SERVER_ERROR' },
      },
    ]);
    expect(logged(requestId)).toMatch(detail);
  });

  it.each([
    ['an Error carrying SQL and a path', 'error', /SELECT secret_column FROM tags/],
    ['a thrown string', 'string', /SELECT \* FROM access_tokens/],
    ['a TypeError (a bug)', 'type', /TypeError: Cannot read properties of undefined/],
  ])('Rest.li: %s', async (_case, how, detail) => {
    const requestId = `rest-${how}`;
    expect(await post('/gms/operations?action=explode', { how }, requestId)).toEqual({
      status: 500,
      body: { message: UNKNOWN_ERROR_MESSAGE, status: 500 },
    });
    expect(logged(requestId)).toMatch(detail);
  });

  it('the authenticator failing', async () => {
    expect(await post('/gms/operations?action=explode', { how: 'error' }, 'auth-1', 'Bearer explode')).toEqual({
      status: 500,
      body: { message: UNKNOWN_ERROR_MESSAGE, status: 500 },
    });
    const graphql = await post('/api/graphql', { query: ME }, 'auth-2', 'Bearer explode');
    expect(graphql).toEqual({
      status: 500,
      body: { errors: [{ message: UNKNOWN_ERROR_MESSAGE, extensions: { code: 500, type: 'SERVER_ERROR' } }] },
    });
    expect(logged('auth-1')).toMatch(/secrets\.json/);
  });

  it('an error meant for the caller still passes unmasked', async () => {
    const { body } = await post('/api/graphql', { query: 'mutation { deleteTag(urn: "urn:li:tag:x") }' }, 'known-1');
    expect(body.errors[0]).toMatchObject({ message: 'Tag urn:li:tag:x does not exist', extensions: { code: 404, type: 'NOT_FOUND' } });
    expect(logged('known-1')).toBe('');
  });
});

describe('credentials: only the exact system client id and secret pass, tokens are stored only as hashes', () => {
  const SECRET = 'system-secret-0123456789';
  let mds: Mds;
  beforeAll(async () => {
    mds = await startMds({ DATAHUB_SYSTEM_CLIENT_ID: 'sys', DATAHUB_SYSTEM_CLIENT_SECRET: SECRET });
  });
  afterAll(() => mds?.close());

  const withBasic = async (credentials: string) => (await apiClient(mds.url, `Basic ${credentials}`).graphql(ME)).status;

  it('wrong system secrets of equal length, other lengths, or a wrong id all get 401', async () => {
    expect(await withBasic(`sys:${SECRET}`)).toBe(200);
    const sameLength = SECRET.replace(/.$/, 'X');
    for (const credentials of [
      `sys:${sameLength}`,
      `sys:${SECRET.slice(0, -1)}`,
      `sys:${SECRET}0`,
      'sys:',
      `sys:${SECRET.repeat(50)}`,
      `SYS:${SECRET}`,
      `sy:${SECRET}`,
      `sys :${SECRET}`,
    ]) {
      expect([credentials, await withBasic(credentials)]).toEqual([credentials, 401]);
      expect(await withBasic(Buffer.from(credentials).toString('base64'))).toBe(401);
    }
  });

  it('mds.db holds no token, neither whole nor its payload or signature', async () => {
    const tokens = [mds.rootToken, await mds.tokenFor('urn:li:corpuser:hashed', 'urn:li:dataHubRole:Editor')];
    const created = await mds.graphql(
      'mutation { createAccessToken(input: { type: PERSONAL, actorUrn: "urn:li:corpuser:datahub", duration: ONE_DAY, name: "x" }) { accessToken } }',
    );
    tokens.push(created.body.data.createAccessToken.accessToken);
    const forbidden = tokens.flatMap((token) => [token, ...token.split('.').slice(1)]);
    const cells = readDatabase(join(mds.dataDir, 'mds.db'), (db) => {
      const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).pluck().all() as string[];
      return tables.flatMap((table) =>
        (db.prepare(`SELECT * FROM "${table}"`).raw().all() as unknown[][])
          .flat()
          .map((cell) => (Buffer.isBuffer(cell) ? cell.toString('latin1') : String(cell))),
      );
    });
    expect(cells.length).toBeGreaterThan(0);
    for (const piece of forbidden) expect(cells.some((cell) => cell.includes(piece))).toBe(false);
  });
});

describe('a reader cannot escalate', () => {
  let mds: Mds;
  let admin: string;
  beforeAll(async () => {
    mds = await startMds();
    admin = await mds.tokenFor('urn:li:corpuser:alice', 'urn:li:dataHubRole:Admin');
  });
  afterAll(() => mds?.close());

  it('a reader cannot reach index sizes through the OpenAPI path either', async () => {
    const reader = await mds.tokenFor('urn:li:corpuser:rita', 'urn:li:dataHubRole:Reader');
    const { status, body } = await mds.clientFor(reader).get('/openapi/operations/elasticSearch/getIndexSizes');
    expect([status, body]).toEqual([403, { status: 403, message: 'User is unauthorized to get index sizes.' }]);
  });

  it.each([
    ['demoted to Reader', 'urn:li:dataHubRole:Reader'],
    ['stripped of every role', null],
  ])('an editor %s cannot do editor things with the token they already hold', async (_case, role) => {
    const urn = `urn:li:corpuser:ed-${role ? 'reader' : 'none'}`;
    const token = await mds.tokenFor(urn, 'urn:li:dataHubRole:Editor');
    const create = (id: string) => mds.graphql(`mutation { createTag(input: { id: "${id}", name: "${id}" }) }`, {}, token);
    expect((await create(`${urn.slice(-4)}-1`)).body.data.createTag).toBe(`urn:li:tag:${urn.slice(-4)}-1`);

    const assigned = await mds.graphql(
      'mutation($r: String, $a: [String!]!) { batchAssignRole(input: { roleUrn: $r, actors: $a }) }',
      { r: role, a: [urn] },
      admin,
    );
    expect(assigned.body.data.batchAssignRole).toBe(true);
    for (const refused of [
      await create(`${urn.slice(-4)}-2`),
      await mds.graphql(`mutation { setTagColor(urn: "urn:li:tag:${urn.slice(-4)}-1", colorHex: "#FFF") }`, {}, token),
      await mds.graphql(`mutation { deleteTag(urn: "urn:li:tag:${urn.slice(-4)}-1") }`, {}, token),
    ]) {
      expect(refused.body.errors[0]).toMatchObject({ message: FORBIDDEN, extensions: { code: 403, type: 'UNAUTHORIZED' } });
    }
    const me = await mds.graphql('{ me { platformPrivileges { manageTags createTags } } }', {}, token);
    expect(me.body.data.me.platformPrivileges).toEqual({ manageTags: false, createTags: false });
  });
});
