import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDataDir } from '../support/child';
import { deeplyNested } from '../support/fuzz-values';
import { SYSTEM_AUTH, spawnLive } from '../support/live';
import { startMds, type Mds } from '../support/mds';
import { send, sendRaw } from '../support/raw-http';
import { T0 } from '../support/timeseries-data';

// Every failure the robustness tests found, as the exact input that caused it and the answer it must get: the
// fuzzer's (fuzz.test.ts) as HTTP requests, the process tests' as signals and loads.
// (The shutdown drain that waited for the full shutdown timeout under keep-alive load is asserted where it was
// found, in shutdown.test.ts: exit within 2 s.)
let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
});
afterAll(() => mds?.close());

const proposalWith = (value: string, extra: Record<string, unknown> = {}) => ({
  proposal: {
    entityType: 'dataset',
    entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.fuzz,PROD)',
    changeType: 'UPSERT',
    aspectName: 'datasetProfile',
    aspect: { contentType: 'application/json', value },
    ...extra,
  },
});

describe('GraphQL: an operationName that names no operation', () => {
  // Was a 500: graphql-tools' executor throws a plain Error ("Must provide an operation.") when the name matches nothing.
  it.each([
    [
      'the request the fuzzer found (an anonymous operation)',
      {
        query:
          'mutation($v0: String!, $v1: DescriptionUpdateInput!) { f0: revokeAccessToken(tokenId: $v0) f1: updateDescription(input: $v1) }',
        variables: { v0: '', v1: { description: '', resourceUrn: 'a', subResourceType: '', unknownField: 1 }, extra: '' },
        operationName: 'Missing',
      },
      'Unknown operation named "Missing".',
    ],
    ['a named operation', { query: 'query Op { __typename }', operationName: 'Other' }, 'Unknown operation named "Other".'],
    [
      'two operations and no name',
      { query: 'query A { __typename } query B { __typename }' },
      'Must provide operation name if query contains multiple operations.',
    ],
  ])('%s', async (_case, request, message) => {
    const { status, body } = await mds.post('/api/graphql', request);
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ message, extensions: { code: 400, type: 'BAD_REQUEST' } }]);
  });
});

describe('GraphQL: browseV2 with a filter field the index does not know', () => {
  // Was a 500: browseV2 let the index's SearchQueryError through instead of answering the caller's 400.
  it('the request the fuzzer found', async () => {
    const query = 'query Op($v0: BrowseV2Input!) { f0: browseV2(input: $v0) { groups { name } } __schema { types { name } } }';
    const variables = { v0: { types: 'TAG', path: ['', ''], orFilters: [{ and: { field: 'a' } }] } };
    const { body } = await mds.post('/api/graphql', { query, variables, operationName: 'Op' });
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^Unknown filter field a; known: /),
        extensions: { code: 400, type: 'BAD_REQUEST' },
      }),
    ]);
  });
});

describe('ingestion: values nested deeper than any aspect is', () => {
  // Was a 500: JSON.stringify of the parsed value overflowed the stack ("Maximum call stack size exceeded").
  it.each([
    ['eventGranularity', `{"timestampMillis":${T0 + 1},"eventGranularity":${deeplyNested('object', 100_000)}}`, 'proposal.aspect.value'],
    [
      'partitionSpec.timePartition',
      `{"timestampMillis":${T0 + 1},"partitionSpec":{"timePartition":${deeplyNested('object', 100_000)}}}`,
      'proposal.aspect.value',
    ],
    [
      'a field only stored, never read',
      `{"timestampMillis":${T0 + 1},"rowCount":${deeplyNested('array', 1_000)}}`,
      'proposal.aspect.value',
    ],
  ])('%s', async (_field, value, parameter) => {
    const { status, body } = await mds.post('/aspects?action=ingestProposal', proposalWith(value));
    expect(status).toBe(400);
    expect(body.message).toBe(`Parameter '${parameter}' of action 'ingestProposal': is nested more than 100 levels deep`);
  });

  it('systemMetadata', async () => {
    const text = JSON.stringify(proposalWith(`{"timestampMillis":${T0}}`, { systemMetadata: '__deep__' })).replace(
      '"__deep__"',
      `{"properties":${deeplyNested('object', 100_000)}}`,
    );
    const { status, body } = await mds.clientFor(mds.rootToken).postText('/aspects?action=ingestProposal', text);
    expect(status).toBe(400);
    expect(body.message).toBe("Parameter 'proposal.systemMetadata' of action 'ingestProposal': is nested more than 100 levels deep");
  });

  it('a value 100 levels deep is still accepted', async () => {
    const value = `{"timestampMillis":${T0 + 2},"eventGranularity":{"unit":"DAY","multiple":1,"x":${deeplyNested('array', 98)}}}`;
    expect((await mds.post('/aspects?action=ingestProposal', proposalWith(value))).status).toBe(200);
  });
});

describe('HTTP: CONNECT', () => {
  // Was no answer at all: node closes a CONNECT connection unless the server listens for it.
  it('is answered 405 like any other method the path does not allow', async () => {
    const body = '{"query":"{ me { corpUser { urn } } }"}';
    const head = [
      'CONNECT /api/graphql HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${mds.rootToken}`,
      'Content-Type: application/json',
      'X-Request-Id: \xff\xfe',
      'Connection: close',
      `Content-Length: ${body.length}`,
    ];
    const answer = await sendRaw(mds.url, `${head.join('\r\n')}\r\n\r\n${body}`);
    expect(answer.status).toBe(405);
    expect(JSON.parse(answer.body)).toEqual({ status: 405, message: 'Method CONNECT is not allowed' });
  });
});

describe('memory: parse caches bounded in bytes, not only in entries', () => {
  // Was an out-of-memory crash: Yoga cached 1,024 parsed documents whatever their size, so distinct 1 MB documents
  // (a long comment is one token) grew the heap by ~1 MB each. Under a 160 MB heap the process died after ~100.
  it('300 distinct one-megabyte documents leave the process up', async () => {
    const server = await spawnLive({ DATA_DIR: freshDataDir('cache'), NODE_OPTIONS: '--max-old-space-size=160' });
    try {
      const pad = 'x'.repeat(1_000_000);
      for (let i = 0; i < 300; i++) {
        const body = JSON.stringify({ query: `#${i}${pad}\n{ __typename }` });
        const answer = await send(server.url, {
          method: 'POST',
          path: '/api/graphql',
          headers: { 'content-type': 'application/json', authorization: SYSTEM_AUTH },
          body,
        });
        expect([i, answer.status, answer.body]).toEqual([i, 200, '{"data":{"__typename":"Query"}}']);
      }
      expect(await server.stop()).toBe(0);
    } finally {
      await server.stop('SIGKILL'); // a no-op once it has exited
    }
  }, 60_000);
});

describe('process: SIGTERM the moment the server says it is listening', () => {
  // Was a kill by signal (exit code null): the listening line was printed before the SIGTERM handler existed.
  it('is a graceful stop with exit code 0', async () => {
    for (let i = 0; i < 2; i++) {
      const server = await spawnLive({ DATA_DIR: freshDataDir('sigterm') });
      expect(await server.stop('SIGTERM')).toBe(0);
    }
  }, 30_000);
});
