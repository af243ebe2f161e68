import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createMdsClient, createOpenApiClient, MdsError, timeseriesProposal, type OpenApiPaths, type OpenApiSchema } from '../src/index';

/** What the fake server saw of one request. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: any;
}
type Answer = { status?: number; body: unknown; contentType?: string };

// A tiny stand-in for mds: records requests, answers what the test queued. The real server is exercised in
// apps/server/test/client.e2e.test.ts; here we pin the wire shapes and the error mapping.
let server: Server;
let url: string;
let seen: Seen[] = [];
let answers: Answer[] = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: text ? JSON.parse(text) : undefined });
    const answer = answers.shift() ?? { status: 500, body: { message: 'no answer queued', status: 500 } };
    const payload = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json' }).end(payload);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answers = [];
});

const client = () => createMdsClient({ url, token: 'tok-123' });
const reply = (...queued: Answer[]) => answers.push(...queued);
const last = () => seen.at(-1)!;
const caught = async (promise: Promise<unknown>): Promise<MdsError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MdsError);
  return error as MdsError;
};

describe('GraphQL methods', () => {
  it('POST /api/graphql with the bearer token, the operation and its variables', async () => {
    reply({ body: { data: { createTag: 'urn:li:tag:pii' } } });
    expect(await client().tags.create({ id: 'pii', name: 'PII', description: 'personal data' })).toBe('urn:li:tag:pii');
    const request = last();
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/api/graphql');
    expect(request.headers.authorization).toBe('Bearer tok-123');
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    expect(request.body.query).toMatch(/mutation CreateTag\(\$input: CreateTagInput!\)/);
    expect(request.body.variables).toEqual({ input: { id: 'pii', name: 'PII', description: 'personal data' } });
  });

  it('sends each tag operation with DataHub’s argument shapes', async () => {
    const tag = { urn: 'urn:li:tag:pii', type: 'TAG', properties: { name: 'PII', description: null, colorHex: null } };
    reply(
      { body: { data: { tag } } },
      { body: { data: { tag: null } } },
      { body: { data: { updateTag: tag } } },
      { body: { data: { setTagColor: true } } },
      { body: { data: { updateDescription: true } } },
      { body: { data: { deleteTag: true } } },
      { body: { data: { searchAcrossEntities: { start: 0, count: 1, total: 1, searchResults: [{ entity: tag, matchedFields: [] }] } } } },
    );
    const c = client();
    expect(await c.tags.get('urn:li:tag:pii')).toEqual(tag);
    expect(await c.tags.get('urn:li:tag:none')).toBeNull();
    expect(await c.tags.update('urn:li:tag:pii', { name: 'PII' })).toEqual(tag);
    expect(await c.tags.setColor('urn:li:tag:pii', '#FF0000')).toBe(true);
    expect(await c.tags.describe('urn:li:tag:pii', 'personal')).toBe(true);
    expect(await c.tags.delete('urn:li:tag:pii')).toBe(true);
    expect(await c.tags.search({ query: 'pi', count: 5 })).toEqual({ start: 0, count: 1, total: 1, results: [{ tag, matchedFields: [] }] });
    expect(seen.map((s) => s.body.variables)).toEqual([
      { urn: 'urn:li:tag:pii' },
      { urn: 'urn:li:tag:none' },
      { urn: 'urn:li:tag:pii', input: { urn: 'urn:li:tag:pii', name: 'PII' } },
      { urn: 'urn:li:tag:pii', colorHex: '#FF0000' },
      { input: { resourceUrn: 'urn:li:tag:pii', description: 'personal' } },
      { urn: 'urn:li:tag:pii' },
      { input: { types: ['TAG'], query: 'pi', count: 5 } },
    ]);
  });

  it('sends the token operations', async () => {
    const metadata = {
      urn: 'urn:li:dataHubAccessToken:abc',
      id: 'abc',
      name: 'ci',
      actorUrn: 'urn:li:corpuser:ci',
      ownerUrn: 'urn:li:corpuser:datahub',
      createdAt: 1,
      expiresAt: null,
    };
    reply(
      { body: { data: { createAccessToken: { accessToken: 'eyJ', metadata } } } },
      { body: { data: { listAccessTokens: { start: 0, count: 1, total: 1, tokens: [metadata] } } } },
      { body: { data: { revokeAccessToken: true } } },
      {
        body: {
          data: { me: { corpUser: { urn: 'urn:li:corpuser:datahub', username: 'datahub' }, platformPrivileges: { manageTokens: true } } },
        },
      },
    );
    const c = client();
    expect(await c.tokens.create({ actorUrn: 'urn:li:corpuser:ci', name: 'ci', duration: 'ONE_DAY' })).toEqual({
      accessToken: 'eyJ',
      metadata,
    });
    expect((await c.tokens.list({ filters: [{ field: 'actorUrn', values: ['urn:li:corpuser:ci'] }] })).tokens).toEqual([metadata]);
    expect(await c.tokens.revoke('abc')).toBe(true);
    expect((await c.me()).corpUser.username).toBe('datahub');
    expect(seen.map((s) => s.body.variables)).toEqual([
      { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:ci', name: 'ci', duration: 'ONE_DAY' } },
      { input: { filters: [{ field: 'actorUrn', values: ['urn:li:corpuser:ci'] }] } },
      { tokenId: 'abc' },
      {},
    ]);
  });
});

describe('REST methods', () => {
  it('POST /gms/<resource>?action=<name> with the parameters as the body, unwrapping "value"', async () => {
    const size = {
      aspectName: 'datasetprofile',
      entityName: 'dataset',
      indexName: 'dataset_datasetprofileaspect_v1',
      sizeMb: 0.2,
      sizeInMb: 0.2,
    };
    const status = { completed: false, taskId: 'node:1', status: { total: 10, deleted: 4 }, runTimeNanos: 5 };
    reply(
      { body: { value: { indexSizes: [size] } } },
      {
        body: {
          value:
            'Delete 1 out of 2 rows (50.00%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute.',
        },
      },
      { body: { value: JSON.stringify(status) } },
      { body: { value: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)' } },
      { body: { value: 'success' } },
    );
    const c = client();
    expect(await c.operations.getIndexSizes()).toEqual([size]);
    expect(await c.operations.truncateTimeseriesAspect({ entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: 5 })).toMatch(
      /^Delete 1 out of 2 rows/,
    );
    expect(await c.operations.getEsTaskStatus('node:1')).toEqual(status);
    const proposal = timeseriesProposal({
      entityType: 'dataset',
      entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
      aspectName: 'datasetProfile',
      value: { timestampMillis: 7, rowCount: 3 },
    });
    expect(await c.ingestProposal(proposal)).toBe('urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)');
    expect(await c.ingestProposalBatch([proposal])).toBe('success');

    expect(seen.map((s) => [s.method, s.url, s.headers.authorization])).toEqual([
      ['POST', '/gms/operations?action=getIndexSizes', 'Bearer tok-123'],
      ['POST', '/gms/operations?action=truncateTimeseriesAspect', 'Bearer tok-123'],
      ['POST', '/gms/operations?action=getEsTaskStatus', 'Bearer tok-123'],
      ['POST', '/gms/aspects?action=ingestProposal', 'Bearer tok-123'],
      ['POST', '/gms/aspects?action=ingestProposalBatch', 'Bearer tok-123'],
    ]);
    expect(seen.map((s) => s.body)).toEqual([
      {},
      { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: 5 },
      { task: 'node:1' },
      {
        proposal: {
          entityType: 'dataset',
          entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)',
          aspectName: 'datasetProfile',
          changeType: 'UPSERT',
          aspect: { contentType: 'application/json', value: '{"timestampMillis":7,"rowCount":3}' },
        },
      },
      { proposals: [seen[3]!.body.proposal] },
    ]);
  });
});

describe('errors', () => {
  it('a GraphQL error answered with HTTP 200 carries DataHub’s code and type', async () => {
    const message = 'Unauthorized to perform this action. Please contact your DataHub administrator.';
    reply({
      body: { data: { deleteTag: null }, errors: [{ message, path: ['deleteTag'], extensions: { code: 403, type: 'UNAUTHORIZED' } }] },
    });
    const error = await caught(client().tags.delete('urn:li:tag:x'));
    expect({ ...error, message: error.message }).toMatchObject({
      status: 200,
      code: 403,
      type: 'UNAUTHORIZED',
      message,
      path: ['deleteTag'],
    });
  });

  it('a GraphQL 401 and a 400 validation error', async () => {
    reply(
      {
        status: 401,
        body: { errors: [{ message: 'Unauthorized to perform this action.', extensions: { code: 401, type: 'UNAUTHENTICATED' } }] },
      },
      {
        status: 400,
        body: { errors: [{ message: 'Cannot query field "nope" on type "Query".', extensions: { code: 400, type: 'BAD_REQUEST' } }] },
      },
    );
    expect(await caught(client().me())).toMatchObject({
      status: 401,
      code: 401,
      type: 'UNAUTHENTICATED',
      message: 'Unauthorized to perform this action.',
    });
    expect(await caught(client().request('{ nope }'))).toMatchObject({ status: 400, code: 400, type: 'BAD_REQUEST' });
  });

  it('REST errors ({message, status}) for 401, 403, 400 and 409', async () => {
    reply(
      { status: 401, body: { message: 'Unauthorized to perform this action.', status: 401 } },
      { status: 403, body: { message: 'User is unauthorized to get index sizes.', status: 403 } },
      { status: 400, body: { message: "Parameter 'aspect' of action 'truncateTimeseriesAspect': is required", status: 400 } },
      { status: 409, body: { message: 'A truncation is already running', status: 409 } },
    );
    const c = client();
    expect(await caught(c.operations.getIndexSizes())).toMatchObject({ status: 401, code: 401, type: 'UNAUTHENTICATED' });
    expect(await caught(c.operations.getIndexSizes())).toMatchObject({
      status: 403,
      code: 403,
      type: 'UNAUTHORIZED',
      message: 'User is unauthorized to get index sizes.',
    });
    expect(await caught(c.operations.truncateTimeseriesAspect({ entityType: 'dataset', aspect: '', endTimeMillis: 1 }))).toMatchObject({
      status: 400,
      type: 'BAD_REQUEST',
      message: expect.stringContaining("Parameter 'aspect'"),
    });
    expect(await caught(c.operations.getEsTaskStatus('n:1'))).toMatchObject({ status: 409, code: 409, type: 'CONFLICT' });
  });

  it('a non-JSON answer from something in between (a proxy) still gives an MdsError', async () => {
    reply(
      { status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' },
      { status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' },
    );
    expect(await caught(client().operations.getIndexSizes())).toMatchObject({
      status: 502,
      code: 502,
      type: 'SERVER_ERROR',
      message: '<html>Bad Gateway</html>',
    });
    expect(await caught(client().me())).toMatchObject({ status: 502, code: 502, type: 'SERVER_ERROR' });
  });
});

describe('the OpenAPI client (types generated from the document mds serves)', () => {
  const openapi = () => createOpenApiClient({ baseUrl: url, token: 'tok-123' });
  const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db/a,PROD)';

  it('fills path parameters percent-encoded, repeats array parameters, sends the bearer token', async () => {
    const tags: OpenApiSchema<'GlobalTags'> = { tags: [{ tag: 'urn:li:tag:pii' }] };
    reply({ body: { urn: URN, globalTags: { value: tags } } });
    const { data } = await openapi().GET('/openapi/v3/entity/dataset/{urn}', {
      params: { path: { urn: URN }, query: { aspects: ['globalTags', 'status'] } },
    });
    expect(data?.globalTags?.value.tags[0]?.tag).toBe('urn:li:tag:pii');
    expect(last().url).toBe(`/openapi/v3/entity/dataset/${encodeURIComponent(URN)}?aspects=globalTags&aspects=status`);
    expect(last().headers.authorization).toBe('Bearer tok-123');
  });

  it('sends a typed body as JSON and hands an error answer back as `error`', async () => {
    reply({ status: 422, body: { error: 'Cannot perform CREATE since the aspect already exists.' } });
    const { data, error, response } = await openapi().POST('/openapi/v3/entity/dataset/{urn}/status', {
      params: { path: { urn: URN }, query: { createIfNotExists: true } },
      body: { value: { removed: false } },
    });
    expect([data, error, response.status]).toEqual([undefined, { error: 'Cannot perform CREATE since the aspect already exists.' }, 422]);
    expect(last()).toMatchObject({ method: 'POST', body: { value: { removed: false } } });
    expect(last().headers['content-type']).toBe('application/json');
  });

  // The typecheck is the assertion here: each @ts-expect-error line fails `tsc` if it compiles.
  it('refuses, at compile time, a value of the wrong shape or an aspect path the entity type lacks', () => {
    const statusBody = (body: OpenApiSchema<'StatusRequest'>) => body.value.removed;
    // @ts-expect-error `removed` is a boolean
    expect(statusBody({ value: { removed: 'yes' } })).toBe('yes');
    // @ts-expect-error corpuser has no datasetProperties aspect
    const wrongPath: keyof OpenApiPaths = '/openapi/v3/entity/corpuser/{urn}/datasetProperties';
    expect(wrongPath).toContain('corpuser');
  });
});
