import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/api-client';
import { freshDataDir, type ChildServer } from '../support/child';
import { closedPort, elasticsearch9, silentCluster } from '../support/fake-elasticsearch';
import { spawnLive, systemClient } from '../support/live';
import { startMds, type Mds } from '../support/mds';
import { T0, TARGET, ingestRange, pollTask, profileProposal, startTruncation } from '../support/timeseries-data';

// Backends that fail: an Elasticsearch that is not there or never answers, and two truncations racing.
const TIMEOUT_MS = 500;
/** What a 2-core CI adds on top of the configured bound (scheduling, the request itself). */
const SLACK_MS = 1_500;

/** Every index operation, as an operator or an ingesting client calls it. */
const indexOperations: [string, (api: ApiClient) => Promise<{ status: number; body: any }>][] = [
  ['getIndexSizes', (api) => api.operation('getIndexSizes', {})],
  ['getIndexSizes (OpenAPI)', (api) => api.get('/openapi/operations/elasticSearch/getIndexSizes')],
  ['truncateTimeseriesAspect (dry run)', (api) => api.operation('truncateTimeseriesAspect', { ...TARGET, endTimeMillis: T0 })],
  ['truncateTimeseriesAspect', (api) => api.operation('truncateTimeseriesAspect', { ...TARGET, endTimeMillis: T0, dryRun: false })],
  ['getEsTaskStatus', (api) => api.operation('getEsTaskStatus', { task: 'abc:1' })],
  ['ingestProposal', (api) => api.ingest([profileProposal(T0)])],
  ['ingestProposalBatch', (api) => api.ingest([profileProposal(T0), profileProposal(T0 + 1)])],
];

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

/** Tags are SQLite's business: they keep working whatever the cluster does. */
async function expectTagsWork(api: ApiClient, id: string) {
  const [created, ms] = await timed(() => api.graphql(`mutation { createTag(input: { id: "${id}", name: "${id}" }) }`));
  expect(created).toEqual({ status: 200, body: { data: { createTag: `urn:li:tag:${id}` } } });
  expect((await api.graphql(`{ tag(urn: "urn:li:tag:${id}") { urn } }`)).body.data.tag.urn).toBe(`urn:li:tag:${id}`);
  return ms;
}

describe('Elasticsearch unreachable', () => {
  let server: ChildServer;
  let api: ApiClient;
  beforeAll(async () => {
    server = await spawnLive({
      DATA_DIR: freshDataDir('es-down'),
      ELASTICSEARCH_URL: `http://127.0.0.1:${await closedPort()}`,
      ELASTICSEARCH_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    api = systemClient(server);
  });
  afterAll(() => server?.stop());

  it.each(indexOperations)('%s answers 503 naming the cause, within the bound', async (_name, call) => {
    const [{ status, body }, ms] = await timed(() => call(api));
    expect(status).toBe(503);
    expect(body.message).toMatch(/Elasticsearch at http:\/\/127\.0\.0\.1:\d+ is unreachable/);
    expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
  });

  it('the tag API keeps working', async () => {
    await expectTagsWork(api, 'while-es-is-down');
  });
});

/**
 * A server of the calling describe's own whose cluster accepts connections and never answers: `api` calls it, and
 * `silent` can be closed to bring a real cluster up on its port.
 */
function serverWithSilentCluster(label: string) {
  const state = {} as { server: ChildServer; api: ApiClient; silent: Awaited<ReturnType<typeof silentCluster>> };
  beforeAll(async () => {
    state.silent = await silentCluster();
    state.server = await spawnLive({
      DATA_DIR: freshDataDir(label),
      ELASTICSEARCH_URL: state.silent.url,
      ELASTICSEARCH_TIMEOUT_MS: String(TIMEOUT_MS),
    });
    state.api = systemClient(state.server);
  });
  afterAll(async () => {
    await state.server?.stop();
    await state.silent?.close();
  });
  return state;
}

describe('Elasticsearch accepting connections but never answering, then coming back', () => {
  const silenced = serverWithSilentCluster('es-silent');

  it.each(indexOperations)('%s answers 503 once ELASTICSEARCH_TIMEOUT_MS has passed', async (_name, call) => {
    const [{ status, body }, ms] = await timed(() => call(silenced.api));
    expect(status).toBe(503);
    expect(body.message).toMatch(new RegExp(`did not answer .* within ${TIMEOUT_MS} ms`));
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(ms).toBeLessThan(TIMEOUT_MS + SLACK_MS);
  });

  it('tags answer at once while index operations hang', async () => {
    const hanging = silenced.api.operation('getIndexSizes', {});
    const tagMs = await expectTagsWork(silenced.api, 'while-es-hangs');
    expect(tagMs).toBeLessThan(TIMEOUT_MS);
    expect((await hanging).status).toBe(503);
  });
});

// Its own silent cluster and server: bringing the cluster back would end the silence the tests above rely on.
describe('Elasticsearch silent, then answering on the same address', () => {
  const silenced = serverWithSilentCluster('es-back');

  it('the next call succeeds once a cluster answers on that address', async () => {
    expect((await silenced.api.operation('getIndexSizes', {})).status).toBe(503);
    await silenced.silent.close();
    const cluster = await elasticsearch9(silenced.silent.port);
    try {
      const { status, body } = await silenced.api.operation('getIndexSizes', {});
      expect([status, body]).toEqual([200, { value: { indexSizes: [] } }]);
      expect(cluster.requests).toEqual(['GET /', expect.stringMatching(/^GET \/\*aspect_v1\/_stats\/store/)]);
    } finally {
      await cluster.close();
    }
  });
});

describe('two truncations of one index at once', () => {
  let mds: Mds;
  beforeAll(async () => {
    mds = await startMds();
    await ingestRange(mds, 0, 40_000);
  });
  afterAll(() => mds?.close());

  const truncate = (options: Record<string, unknown>) => startTruncation(mds, T0 + 9_999, { batchSize: 2, ...options });

  it('the second is refused with a 409 naming the running task; once it completes, a new one starts', async () => {
    const [first, second] = await Promise.all([truncate({}), truncate({ forceReindex: true })]);
    const [started, refused] = first.status === 200 ? [first, second] : [second, first];
    expect(started.status).toBe(200);
    const task = started.body.value as string;
    expect(refused).toEqual({
      status: 409,
      body: {
        status: 409,
        message: `A truncation of dataset_datasetprofileaspect_v1 is already running as task ${task}; wait for it to complete (poll getEsTaskStatus) before starting another.`,
      },
    });
    expect((await truncate({ batchSize: 1000 })).status).toBe(409);

    await pollTask(mds, task, (s) => s.completed);
    const next = await truncate({ endTimeMillis: T0 + 19_999 });
    expect(next.status).toBe(200);
    expect(next.body.value).not.toBe(task);
  }, 60_000);
});
