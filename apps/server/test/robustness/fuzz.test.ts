import { buildApiSchema } from '@mds/schema';
import { repositoryTypeDefs } from '@mds/schema/repository-sdl';
import fc from 'fast-check';
import { maxHeaderSize } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDataDir, type ChildServer } from '../support/child';
import {
  graphqlRequests,
  headerRequests,
  methodRequests,
  mutatedJsonRequests,
  operationRequests,
  proposalRequests,
  rawRequests,
  type FuzzContext,
  type FuzzRequest,
} from '../support/fuzz-requests';
import { SYSTEM_AUTH, mintToken, rssOf, spawnLive, systemClient } from '../support/live';
import { send, sendRaw, type Exchange } from '../support/raw-http';
import { ingestRange } from '../support/timeseries-data';

// Property-based fuzzing of a real `mds serve`: whatever arrives, the answer is never a 5xx (HTTP status, or a
// GraphQL error with code 500+), the process stays up, its memory stays bounded, and it still works afterwards.
// Reproducible by default; FUZZ_SEED and FUZZ_RUNS (total requests) explore further. A failure is reported with the
// request that caused it, shrunk; each one found is kept as an exact case in regressions.test.ts.
const SEED = Number(process.env.FUZZ_SEED || 72_026);
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS || 10_500);
/** Share of the total per request family. */
const SHARES = { graphql: 0.3, json: 0.14, headers: 0.12, raw: 0.06, methods: 0.1, operations: 0.14, proposals: 0.14 };
const runsOf = (family: keyof typeof SHARES) => Math.max(1, Math.round(TOTAL_RUNS * SHARES[family]));
/**
 * The server runs with a capped heap, so V8 collects instead of growing lazily and a leak would end the process
 * (which the invariants catch). RSS may grow by its bounded caches (parsed documents and their validation results,
 * signatures, SQLite pages): the bound is generous.
 */
const HEAP_CAP_MB = 256;
const MAX_RSS_GROWTH = 256 * 1024 * 1024;

let server: ChildServer;
let ctx: FuzzContext;
let rssBefore: number;
const tally = { requests: 0, byStatus: new Map<number, number>() };

beforeAll(async () => {
  server = await spawnLive({ DATA_DIR: freshDataDir('fuzz'), LOG_LEVEL: 'error', NODE_OPTIONS: `--max-old-space-size=${HEAP_CAP_MB}` });
  const api = systemClient(server);
  ctx = {
    bearer: await mintToken(api, 'urn:li:corpuser:fuzzer', 'urn:li:dataHubRole:Admin'),
    basic: SYSTEM_AUTH,
    schema: buildApiSchema([{ typeDefs: repositoryTypeDefs() }]),
  };
  await api.graphql('mutation { createTag(input: { id: "fuzz", name: "fuzz" }) }');
  await ingestRange(api, 0, 2_000);
  rssBefore = await rssOf(server.process.pid!);
});

afterAll(async () => {
  const statuses = [...tally.byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}:${n}`)
    .join(' ');
  console.info(`fuzz: seed ${SEED}, ${tally.requests} requests; statuses ${statuses}`);
  await server?.stop();
});

async function exchange(request: FuzzRequest): Promise<Exchange> {
  tally.requests++;
  const answer = request.via === 'raw' ? await sendRaw(server.url, request.bytes) : await send(server.url, request);
  tally.byStatus.set(answer.status, (tally.byStatus.get(answer.status) ?? 0) + 1);
  return answer;
}

/** The invariants every single answer must keep. */
function assertNoServerError(request: FuzzRequest, answer: Exchange): void {
  if (server.process.exitCode !== null || server.process.signalCode !== null) {
    throw new Error(`mds exited (${server.process.exitCode ?? server.process.signalCode}):\n${server.stderr()}\n${server.stdout()}`);
  }
  // -1: node's own client refused to build the request (nothing was sent), which says nothing about the server.
  if (answer.status === -1) return;
  // Past node's header limit the server answers 431 and closes at once: the client may see the reset first.
  if (answer.status === 0 && request.via === 'http' && headerBytes(request) > maxHeaderSize) return;
  if (answer.status === 0) throw new Error(`no answer (${answer.error})`);
  if (answer.status >= 500)
    throw new Error(`answered ${answer.status}: ${answer.body.slice(0, 500)}\nlog: ${server.stdout().slice(-2000)}`);
  if (request.via === 'http' && request.path.startsWith('/api/graphql') && answer.body.startsWith('{')) {
    const errors = (JSON.parse(answer.body) as { errors?: { extensions?: { code?: number } }[] }).errors ?? [];
    const serverError = errors.find((e) => (e.extensions?.code ?? 0) >= 500);
    if (serverError) throw new Error(`GraphQL error ${JSON.stringify(serverError)}\nlog: ${server.stdout().slice(-2000)}`);
  }
}

const headerBytes = (request: { headers: Record<string, string | string[]> }) =>
  Object.entries(request.headers).reduce(
    (sum, [name, value]) => sum + [value].flat().reduce((n, v) => n + name.length + v.length + 4, 0),
    0,
  );

const fuzz = (family: keyof typeof SHARES, arbitrary: (ctx: FuzzContext) => fc.Arbitrary<FuzzRequest>) =>
  it(`${family}: ${runsOf(family)} requests, never a 5xx`, async () => {
    await fc.assert(
      fc.asyncProperty(arbitrary(ctx), async (request) => assertNoServerError(request, await exchange(request))),
      { seed: SEED, numRuns: runsOf(family), endOnFailure: false },
    );
  }, 240_000);

describe('fuzzing a live server', () => {
  fuzz('graphql', graphqlRequests);
  fuzz('json', mutatedJsonRequests);
  fuzz('headers', headerRequests);
  fuzz('raw', rawRequests);
  fuzz('methods', methodRequests);
  fuzz('operations', operationRequests);
  fuzz('proposals', proposalRequests);

  it('is still up, within its memory bound, and still serves a control request', async () => {
    expect([server.process.exitCode, server.process.signalCode], server.stderr()).toEqual([null, null]);
    const api = systemClient(server);
    const created = await api.graphql('mutation { createTag(input: { id: "after-fuzz", name: "after fuzz" }) }');
    expect(created).toEqual({ status: 200, body: { data: { createTag: 'urn:li:tag:after-fuzz' } } });
    const read = await api.graphql('{ tag(urn: "urn:li:tag:after-fuzz") { properties { name } } }');
    expect(read.body.data.tag.properties.name).toBe('after fuzz');
    expect((await api.operation('getIndexSizes', {})).status).toBe(200);
    const rssAfter = await rssOf(server.process.pid!);
    console.info(`fuzz: RSS ${Math.round(rssBefore / 2 ** 20)} MiB before, ${Math.round(rssAfter / 2 ** 20)} MiB after`);
    expect(rssAfter - rssBefore).toBeLessThan(MAX_RSS_GROWTH);
  });
});
