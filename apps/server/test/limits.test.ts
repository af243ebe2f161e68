import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from './support/live';
import { startMds, type Mds } from './support/mds';

// Every limit an operator relies on, at its default and where configurable at a changed value: each refusal is a
// 4xx whose message names the limit.
const repeat = (n: number, piece: (i: number) => string) => Array.from({ length: n }, (_, i) => piece(i)).join(' ');
const DEEP = '{ tag(urn: "urn:li:tag:x") { ownership { owners { owner { ... on CorpUser { urn } } } } } }'; // depth 5

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
});
afterAll(() => mds?.close());

const refusal = async (run: Promise<{ status: number; body: any }>) => {
  const { status, body } = await run;
  expect(status).toBe(400);
  return body.errors?.map((e: any) => e.message).join('\n') ?? body.message;
};

describe('GraphQL limits at their defaults', () => {
  it('refuses more than 5,000 tokens', async () => {
    expect(await refusal(mds.graphql(`{ ${repeat(5100, () => '__typename')} }`))).toMatch(/Token limit of 5000/);
  });

  it('refuses more than 1,500 aliases, the same way when the document is sent again (its prepared outcome is kept)', async () => {
    const tooMany = `{ appConfig { ${repeat(1501, (i) => `a${i}: appVersion`)} } }`;
    const first = await refusal(mds.graphql(tooMany));
    expect(first).toMatch(/Aliases limit of 1500/);
    expect(await refusal(mds.graphql(tooMany))).toBe(first);
    expect((await mds.graphql(`{ appConfig { ${repeat(1500, (i) => `a${i}: appVersion`)} } }`)).status).toBe(200);
  });

  it('refuses more than 30 directives', async () => {
    expect(await refusal(mds.graphql(`{ __typename ${repeat(31, () => '@include(if: true)')} }`))).toMatch(/Directives limit of 30/);
  });

  it('answers a batch (array body) with 400: batching is off', async () => {
    expect(await refusal(mds.post('/api/graphql', [{ query: '{ __typename }' }]))).toMatch(/batching is not supported/);
  });

  it('introspection is on by default, as in DataHub', async () => {
    const { body } = await mds.graphql('{ __schema { queryType { name } } }');
    expect(body.data.__schema.queryType.name).toBe('Query');
  });

  it('caps searchAcrossEntities count at 1,000', async () => {
    const { body } = await mds.graphql('{ searchAcrossEntities(input: { types: [TAG], query: "*", start: 0, count: 1001 }) { total } }');
    expect(body.errors[0]).toMatchObject({ extensions: { code: 400 }, message: expect.stringMatching(/1000/) });
  });

  it('caps ingestProposalBatch at 10,000 proposals', async () => {
    const { status, body } = await mds.post('/aspects?action=ingestProposalBatch', {
      proposals: Array.from({ length: 10_001 }, () => ({})),
    });
    expect(status).toBe(400);
    expect(body.message).toMatch(/at most 10000 proposals/);
  });
});

describe('configured limits', () => {
  let tight: Mds;
  beforeAll(async () => {
    tight = await startMds({
      GRAPHQL_QUERY_DEPTH_LIMIT: '3',
      GRAPHQL_QUERY_COMPLEXITY_LIMIT: '8',
      GRAPHQL_QUERY_MAX_ALIASES: '2',
      GRAPHQL_QUERY_MAX_DIRECTIVES: '1',
      GRAPHQL_QUERY_MAX_TOKENS: '40',
      GRAPHQL_QUERY_INTROSPECTION_ENABLED: 'false',
      MAX_BODY_BYTES: '2048',
      MAX_INGEST_BODY_BYTES: '4096',
      MAX_CONCURRENT_INGESTS: '1',
    });
  });
  afterAll(() => tight?.close());

  it('depth', async () => {
    expect(await refusal(tight.graphql(DEEP))).toMatch(/Query depth limit of 3 exceeded/);
  });
  it('complexity', async () => {
    expect(await refusal(tight.graphql('{ searchAcrossEntities(input: { query: "*", count: 9 }) { total } }'))).toMatch(
      /^Query cost limit of 8 exceeded: this query costs 9 /,
    );
    expect((await tight.graphql('{ searchAcrossEntities(input: { query: "*", count: 8 }) { total } }')).status).toBe(200);
  });
  it('aliases, directives, tokens', async () => {
    expect(await refusal(tight.graphql('{ a: appConfig { appVersion } b: appConfig { appVersion } c: appConfig { appVersion } }'))).toMatch(
      /Aliases limit of 2/,
    );
    expect(await refusal(tight.graphql('{ __typename @include(if: true) @skip(if: false) }'))).toMatch(/Directives limit of 1/);
    expect(await refusal(tight.graphql(`{ ${repeat(45, () => '__typename')} }`))).toMatch(/Token limit of 40/);
  });
  it('introspection off: refused, and no field suggestions leak the schema', async () => {
    expect(await refusal(tight.graphql('{ __schema { types { name } } }'))).toMatch(/introspection/i);
    const misspelt = await refusal(tight.graphql('{ appConfg { appVersion } }'));
    expect(misspelt).not.toMatch(/Did you mean/);
    expect(await refusal(mds.graphql('{ appConfg { appVersion } }'))).toMatch(/Did you mean "appConfig"/);
  });
  it('request bodies: MAX_BODY_BYTES, and MAX_INGEST_BODY_BYTES on ingestion', async () => {
    const big = await tight.post('/api/graphql', { query: `{ __typename }`, variables: { pad: 'x'.repeat(3000) } });
    expect(big.status).toBe(413);
    expect(big.body.errors[0]).toEqual({
      message: 'Request body exceeds the limit of 2048 bytes',
      extensions: { code: 413, type: 'PAYLOAD_TOO_LARGE' },
    });
    const ingest = await tight.post('/aspects?action=ingestProposalBatch', { proposals: [], pad: 'x'.repeat(3000) });
    expect(ingest.status).toBe(400); // over MAX_BODY_BYTES but under the ingestion limit: read, then refused for its content
    // A single proposal over MAX_BODY_BYTES (a wide schemaMetadata) has the ingestion limit too, read in a slot.
    const single = await tight.post('/aspects?action=ingestProposal', { proposal: { entityUrn: 'x' }, pad: 'x'.repeat(3000) });
    expect([single.status, single.body.message]).toEqual([400, expect.stringMatching(/pad/)]);
    const tooBig = await tight.post('/aspects?action=ingestProposalBatch', { proposals: [], pad: 'x'.repeat(5000) });
    expect([tooBig.status, tooBig.body.message]).toEqual([413, 'Request body exceeds the limit of 4096 bytes']);
  });

  describe('ingestion concurrency', () => {
    const usage = (i: number) => ({
      entityType: 'dashboard',
      entityUrn: `urn:li:dashboard:(looker,d${i})`,
      changeType: 'UPSERT',
      aspectName: 'dashboardUsageStatistics',
      aspect: { contentType: 'application/json', value: JSON.stringify({ timestampMillis: 1_700_000_000_000 + i, viewsCount: i }) },
    });

    /** An ingestion whose body arrives in two halves, the second only when `finish` is called. */
    const slowIngest = (i: number) => {
      const body = JSON.stringify({ proposals: [usage(i)] });
      const req = request(`${tight.url}/aspects?action=ingestProposalBatch`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${tight.rootToken}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      });
      const status = new Promise<number>((resolve, reject) =>
        req.on('response', (res) => resolve(res.resume().statusCode!)).on('error', reject),
      );
      req.write(body.slice(0, 10));
      return { status, finish: () => req.end(body.slice(10)), abandon: () => req.destroy() };
    };

    it('MAX_CONCURRENT_INGESTS: a batch waits, unread, while another holds the only slot', async () => {
      const slow = slowIngest(1);
      await sleep(100); // the slow request is now reading its body, in the slot

      let waitingAnswered = false;
      const waiting = tight
        .post('/aspects?action=ingestProposalBatch', { proposals: [usage(2)] })
        .then((answer) => ((waitingAnswered = true), answer));
      await sleep(300);
      expect(waitingAnswered).toBe(false);
      // Other requests are not held up.
      expect((await tight.graphql('{ appConfig { appVersion } }')).status).toBe(200);

      slow.finish();
      expect(await slow.status).toBe(200);
      expect(await waiting).toMatchObject({ status: 200, body: { value: 'success' } });
    });

    it('an ordinary single proposal is not held up by a batch in the only slot', async () => {
      const slow = slowIngest(6);
      await sleep(100); // in the slot
      const single = await tight.post('/aspects?action=ingestProposal', { proposal: usage(7) });
      expect(single).toMatchObject({ status: 200 });
      slow.finish();
      expect(await slow.status).toBe(200);
    });

    it('a batch whose client leaves while it waits for the slot gives its turn up', async () => {
      const holder = slowIngest(3);
      await sleep(100); // in the slot
      const leaver = slowIngest(4);
      leaver.status.catch(() => {}); // its socket is destroyed below
      await sleep(100); // queued behind the holder
      leaver.abandon();
      await sleep(100); // the server has seen it go
      holder.finish();
      expect(await holder.status).toBe(200);
      // Were the slot still promised to the request that left, this one would wait for ever.
      expect(await tight.post('/aspects?action=ingestProposalBatch', { proposals: [usage(5)] })).toMatchObject({ status: 200 });
    });
  });
});

describe('browsers: CORS, CSRF and the explorer’s CSP', () => {
  const call = (instance: Mds, path: string, init: RequestInit) => fetch(instance.url + path, init);
  const graphqlInit = (headers: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${mds.rootToken}`, ...headers },
    body: JSON.stringify({ query: '{ __typename }' }),
  });

  it('refuses other origins unless listed in CORS_ORIGINS', async () => {
    const foreign = await call(mds, '/api/graphql', graphqlInit({ origin: 'https://evil.example' }));
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).message).toMatch(/CORS_ORIGINS/);
    const same = await call(mds, '/api/graphql', graphqlInit({ origin: mds.url }));
    expect(same.status).toBe(200);
    expect(same.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets a listed origin in, preflight included', async () => {
    const open = await startMds({ CORS_ORIGINS: 'https://app.example, https://other.example' });
    try {
      const preflight = await call(open, '/api/graphql', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/);
      const res = await call(open, '/api/graphql', {
        ...graphqlInit({ origin: 'https://app.example' }),
        headers: { 'content-type': 'application/json', origin: 'https://app.example', authorization: `Bearer ${open.rootToken}` },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    } finally {
      await open.close();
    }
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'refuses a CORS-simple %s POST (CSRF)',
    async (type) => {
      for (const path of ['/api/graphql', '/gms/operations?action=getIndexSizes', '/aspects?action=ingestProposal']) {
        const res = await call(mds, path, {
          method: 'POST',
          headers: { 'content-type': type, authorization: `Bearer ${mds.rootToken}` },
          body: '{}',
        });
        expect(res.status).toBe(415);
      }
    },
  );

  it('serves the explorer with a CSP that allows only itself', async () => {
    const csp = (await call(mds, '/api/graphiql', {})).headers.get('content-security-policy')!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'sha256-[^']+'( 'sha256-[^']+')*;/);
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).not.toMatch(/unsafe-eval|\*/);
  });
});
