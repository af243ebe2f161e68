import { Client, errors } from '@elastic/elasticsearch';
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ElasticsearchConfig } from '../src/config.ts';
import { ElasticsearchStore } from '../src/elasticsearch/store.ts';
import { TIMESERIES_MAPPINGS } from '../src/elasticsearch/mappings.ts';
import { operationsActions } from '../src/operations-actions.ts';
import { fakeCluster } from './es-fake.ts';
import {
  NODE,
  bulkResponse,
  countResponse,
  errorBody,
  deleteByQueryDone,
  deleteByQueryStarted,
  indexCreated,
  indexExists,
  indexNotFound,
  searchResponse,
  statsResponse,
  taskCompleted,
  taskFailed,
  taskNotFound,
  taskRunning,
  tasksList,
  type Flavour,
} from './es-fixtures.ts';
import { INDEX, OTHER_INDEX, apiError, callAction, doc } from './helpers.ts';

const FLAVOURS: Flavour[] = ['elasticsearch9', 'elasticsearch8', 'opensearch'];
const MEDIA: Record<Flavour, { json: string; ndjson: string; accept: string }> = {
  elasticsearch9: {
    json: 'application/vnd.elasticsearch+json; compatible-with=9',
    ndjson: 'application/vnd.elasticsearch+x-ndjson; compatible-with=9',
    accept: 'application/vnd.elasticsearch+json; compatible-with=9,text/plain',
  },
  elasticsearch8: {
    json: 'application/vnd.elasticsearch+json; compatible-with=8',
    ndjson: 'application/vnd.elasticsearch+x-ndjson; compatible-with=8',
    accept: 'application/vnd.elasticsearch+json; compatible-with=8,text/plain',
  },
  opensearch: { json: 'application/json', ndjson: 'application/x-ndjson', accept: 'application/json, text/plain' },
};

const stores: ElasticsearchStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});
function track(store: ElasticsearchStore) {
  stores.push(store);
  return store;
}

describe.each(FLAVOURS)('Elasticsearch adapter against %s', (flavour) => {
  it('detects the cluster with GET / (plain JSON), then speaks its dialect', async () => {
    const cluster = fakeCluster(flavour, (r) =>
      r.path === '/*aspect_v1/_stats/store' ? { body: statsResponse(flavour, { [INDEX]: 208_123, [OTHER_INDEX]: 5_000 }) } : undefined,
    );
    const store = track(cluster.store());
    expect(await store.indexSizes()).toEqual([
      { indexName: INDEX, sizeBytes: 208_123 },
      { indexName: OTHER_INDEX, sizeBytes: 5_000 },
    ]);
    await store.indexSizes();
    expect(cluster.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /',
      'GET /*aspect_v1/_stats/store',
      'GET /*aspect_v1/_stats/store', // detected once
    ]);
    expect(cluster.requests[0]!.accept).toBe('application/json, text/plain');
    expect(cluster.requests[1]!.accept).toBe(MEDIA[flavour].accept);
  });

  it('getIndexSizes answers primaries in decimal MB, largest first, from ONE stats request', async () => {
    const cluster = fakeCluster(flavour, (r) =>
      r.path === '/acme_*aspect_v1/_stats/store'
        ? { body: statsResponse(flavour, { acme_dataset_operationaspect_v1: 5_000, acme_dataset_datasetprofileaspect_v1: 208_123 }) }
        : undefined,
    );
    const store = track(cluster.store({ indexPrefix: 'acme' }));
    expect(await callAction(operationsActions(store), 'getIndexSizes', {})).toEqual({
      indexSizes: [
        {
          aspectName: 'datasetprofile',
          sizeMb: 0.208123,
          indexName: 'acme_dataset_datasetprofileaspect_v1',
          entityName: 'dataset',
          sizeInMb: 0.208123,
        },
        { aspectName: 'operation', sizeMb: 0.005, indexName: 'acme_dataset_operationaspect_v1', entityName: 'dataset', sizeInMb: 0.005 },
      ],
    });
    expect(cluster.calls()).toHaveLength(1);
  });

  it('an index pattern matching nothing gives an empty report', async () => {
    const cluster = fakeCluster(flavour, (r) => (r.path.endsWith('/_stats/store') ? { body: statsResponse(flavour, {}) } : undefined));
    expect(await track(cluster.store()).indexSizes()).toEqual([]);
  });

  it('writes through _bulk after creating each index once with explicit mappings', async () => {
    const created: string[] = [];
    const cluster = fakeCluster(flavour, (r) => {
      if (r.method === 'PUT') {
        created.push(r.path);
        return created.filter((p) => p === r.path).length > 1 ? undefined : { body: indexCreated(r.path.slice(1)) };
      }
      if (r.path === '/_bulk') {
        const lines = r.body as { index?: { _index: string; _id: string } }[];
        return { body: bulkResponse(lines.filter((l) => l.index).map((l) => ({ index: l.index!._index, id: l.index!._id }))) };
      }
      return undefined;
    });
    const store = track(cluster.store());
    const a = {
      ...doc(1),
      eventGranularity: '{"unit":"DAY","multiple":1}',
      messageId: 'm1',
      runId: 'r1',
      systemMetadataJson: '{"runId":"r1"}',
    };
    const b = {
      ...doc(2, { index: OTHER_INDEX }),
      partitionSpec: { partition: 'FULL_TABLE_SNAPSHOT' },
      eventJson: '{\n  "timestampMillis": 2\n}',
    };
    await store.write([a, b]);
    await store.write([doc(3)]);

    expect(cluster.calls().map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /${INDEX}`,
      `PUT /${OTHER_INDEX}`,
      'POST /_bulk',
      'POST /_bulk',
    ]);
    const [put, , bulk] = cluster.calls();
    expect(put!.body).toEqual({ mappings: TIMESERIES_MAPPINGS });
    expect(put!.contentType).toBe(MEDIA[flavour].json);
    expect(bulk!.contentType).toBe(MEDIA[flavour].ndjson);
    expect(bulk!.body).toEqual([
      { index: { _index: INDEX, _id: a.id } },
      {
        urn: a.urn,
        '@timestamp': 1,
        timestampMillis: 1,
        isExploded: false,
        eventGranularity: '{"unit":"DAY","multiple":1}',
        messageId: 'm1',
        runId: 'r1',
        event: JSON.parse(a.eventJson),
        systemMetadata: { runId: 'r1' },
      },
      { index: { _index: OTHER_INDEX, _id: b.id } },
      {
        urn: b.urn,
        '@timestamp': 2,
        timestampMillis: 2,
        isExploded: false,
        partitionSpec: { partition: 'FULL_TABLE_SNAPSHOT' },
        event: { timestampMillis: 2 },
      },
    ]);
  });

  it('takes an index created meanwhile by someone else; refuses a bulk with rejected items as 503', async () => {
    const cluster = fakeCluster(flavour, (r) => {
      if (r.method === 'PUT') return { status: 400, body: indexExists(INDEX) };
      if (r.path === '/_bulk') {
        return {
          body: bulkResponse([
            { index: INDEX, id: doc(1).id },
            {
              index: INDEX,
              id: doc(2).id,
              status: 429,
              error: { type: 'es_rejected_execution_exception', reason: 'rejected execution of coordinating operation' },
            },
          ]),
        };
      }
      return undefined;
    });
    const error = await apiError(track(cluster.store()).write([doc(1), doc(2)]));
    expect([error.status, error.message]).toEqual([
      503,
      'Elasticsearch rejected 1 of 2 documents: es_rejected_execution_exception: rejected execution of coordinating operation',
    ]);
  });

  it('counts with _count (range lte, and match_all); a missing index counts as empty', async () => {
    const cluster = fakeCluster(flavour, (r) => {
      if (r.path === `/${INDEX}/_count`) {
        const query = (r.body as { query: Record<string, unknown> }).query;
        return { body: countResponse('range' in query ? 600 : 1000) };
      }
      if (r.path === `/${OTHER_INDEX}/_count`) return { status: 404, body: indexNotFound(OTHER_INDEX) };
      return undefined;
    });
    const store = track(cluster.store());
    expect(await store.countForTruncation(INDEX, 1_700_000_000_000)).toEqual({ matching: 600, total: 1000 });
    expect(await store.countForTruncation(OTHER_INDEX, 5)).toEqual({ matching: 0, total: 0 });
    const counts = cluster.calls().filter((r) => r.path === `/${INDEX}/_count`);
    expect(counts.map((r) => [r.method, r.body])).toEqual(
      expect.arrayContaining([
        ['POST', { query: { range: { timestampMillis: { lte: 1_700_000_000_000 } } } }],
        ['POST', { query: { match_all: {} } }],
      ]),
    );
  });

  it("reads one urn's points with a filtered, sorted _search; a missing index has none", async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
    const cluster = fakeCluster(flavour, (r) => {
      if (r.path === `/${INDEX}/_search`) {
        return {
          body: searchResponse(INDEX, [
            {
              id: 'b',
              source: {
                timestampMillis: 20,
                event: { timestampMillis: 20, rowCount: 7 },
                systemMetadata: { runId: 'r2', lastObserved: 21 },
              },
            },
            { id: 'a', source: { timestampMillis: 10, event: { timestampMillis: 10, rowCount: 3 } } },
          ]),
        };
      }
      if (r.path === `/${OTHER_INDEX}/_search`) return { status: 404, body: indexNotFound(OTHER_INDEX) };
      return undefined;
    });
    const store = track(cluster.store());
    expect(await store.values({ index: INDEX, urn, startTimeMillis: 10, endTimeMillis: 20, limit: 2 })).toEqual([
      { eventJson: '{"timestampMillis":20,"rowCount":7}', systemMetadataJson: '{"runId":"r2","lastObserved":21}', timestampMillis: 20 },
      { eventJson: '{"timestampMillis":10,"rowCount":3}', systemMetadataJson: null, timestampMillis: 10 },
    ]);
    expect(await store.values({ index: OTHER_INDEX, urn, limit: 5, order: 'ASCENDING' })).toEqual([]);
    const [windowed, open] = cluster.calls();
    expect([windowed!.method, windowed!.contentType]).toEqual(['POST', MEDIA[flavour].json]);
    expect(windowed!.body).toEqual({
      query: { bool: { filter: [{ term: { urn } }, { range: { timestampMillis: { gte: 10, lte: 20 } } }] } },
      sort: [{ timestampMillis: { order: 'desc' } }],
      size: 2,
      _source: ['timestampMillis', 'event', 'systemMetadata'],
    });
    expect(open!.body).toMatchObject({
      query: { bool: { filter: [{ term: { urn } }] } },
      sort: [{ timestampMillis: { order: 'asc' } }],
      size: 5,
    });
  });

  it("deletes one urn's points with a refreshing _delete_by_query, skipping missing indices", async () => {
    const urn = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
    const cluster = fakeCluster(flavour, (r) =>
      r.path.endsWith('/_delete_by_query') ? { body: deleteByQueryDone(r.path.includes('*') ? 12 : 7) } : undefined,
    );
    const store = track(cluster.store({ indexPrefix: 'acme' }));
    expect(await store.deleteByUrn({ urn, indices: [INDEX, OTHER_INDEX], endTimeMillis: 99 })).toBe(7);
    expect(await store.deleteByUrn({ urn })).toBe(12);
    expect(await store.deleteByUrn({ urn, indices: [] })).toBe(0);
    const [named, all, ...rest] = cluster.calls();
    expect(rest).toEqual([]);
    expect(decodeURIComponent(named!.path)).toBe(`/${INDEX},${OTHER_INDEX}/_delete_by_query`);
    expect(named!.method).toBe('POST');
    expect(named!.querystring).toEqual({ refresh: 'true', ignore_unavailable: 'true', conflicts: 'proceed' });
    expect(named!.body).toEqual({ query: { bool: { filter: [{ term: { urn } }, { range: { timestampMillis: { lte: 99 } } }] } } });
    expect(all!.path).toBe('/acme_*aspect_v1/_delete_by_query');
    expect(all!.body).toEqual({ query: { bool: { filter: [{ term: { urn } }] } } });
  });

  it('reports a delete-by-query that failed part of the way as 503', async () => {
    const failures = [
      { index: INDEX, id: 'x', cause: { type: 'es_rejected_execution_exception', reason: 'rejected execution' }, status: 429 },
    ];
    const cluster = fakeCluster(flavour, (r) =>
      r.path.endsWith('/_delete_by_query') ? { body: { ...deleteByQueryDone(3), failures } } : undefined,
    );
    const error = await apiError(track(cluster.store()).deleteByUrn({ urn: 'urn:li:dataset:x', indices: [INDEX] }));
    expect([error.status, error.message]).toEqual([
      503,
      'Elasticsearch deleted 3 points of urn:li:dataset:x, then failed: 1 failures, first: es_rejected_execution_exception: rejected execution',
    ]);
  });

  it('dry-runs and truncates through the operations actions: one delete-by-query task', async () => {
    const cluster = fakeCluster(flavour, (r) => {
      if (r.path === `/${INDEX}/_count`) return { body: countResponse('range' in (r.body as { query: object }).query ? 600 : 1000) };
      if (r.path === '/_tasks') return { body: tasksList([]) };
      if (r.method === 'PUT') return { status: 400, body: indexExists(INDEX) };
      if (r.path === `/${INDEX}/_delete_by_query`) return { body: deleteByQueryStarted(4242) };
      return undefined;
    });
    const actions = operationsActions(track(cluster.store()));
    const body = { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: 1_700_000_000_000 };
    expect(await callAction(actions, 'truncateTimeseriesAspect', body)).toBe(
      'Delete 600 out of 1000 rows (60.00%). Reindexing the aspect without the deleted records. This was a dry run. Run with dryRun = false to execute.',
    );
    expect(cluster.calls().some((r) => r.path.endsWith('_delete_by_query'))).toBe(false);

    expect(await callAction(actions, 'truncateTimeseriesAspect', { ...body, dryRun: false, batchSize: 2000, timeoutSeconds: 30 })).toBe(
      `${NODE}:4242`,
    );
    const tasks = cluster.calls().find((r) => r.path === '/_tasks')!;
    expect(tasks.querystring).toEqual({ actions: 'indices:data/write/delete/byquery', detailed: 'true', group_by: 'none' });
    const started = cluster.calls().find((r) => r.path.endsWith('_delete_by_query'))!;
    expect(started.method).toBe('POST');
    expect(started.querystring).toEqual({ wait_for_completion: 'false', conflicts: 'proceed', scroll_size: '2000', timeout: '30s' });
    expect(started.body).toEqual({ query: { range: { timestampMillis: { lte: 1_700_000_000_000 } } } });
  });

  it('sends the default batch size (5000) and timeout (60s)', async () => {
    const cluster = fakeCluster(flavour, (r) => {
      if (r.path === '/_tasks') return { body: tasksList([]) };
      if (r.method === 'PUT') return { body: indexCreated(INDEX) };
      if (r.path.endsWith('_delete_by_query')) return { body: deleteByQueryStarted(7) };
      if (r.path.endsWith('_count')) return { body: countResponse(10) };
      return undefined;
    });
    const actions = operationsActions(track(cluster.store()));
    await callAction(actions, 'truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetprofile',
      endTimeMillis: 5,
      dryRun: false,
    });
    expect(cluster.calls().find((r) => r.path.endsWith('_delete_by_query'))!.querystring).toEqual({
      wait_for_completion: 'false',
      conflicts: 'proceed',
      scroll_size: '5000',
      timeout: '60s',
    });
  });

  it('refuses a truncation while a delete-by-query runs on the index (409), not on another one', async () => {
    const cluster = fakeCluster(flavour, (r) => {
      if (r.path === '/_tasks') return { body: tasksList([{ id: 77, index: INDEX }]) };
      if (r.method === 'PUT') return { body: indexCreated(OTHER_INDEX) };
      if (r.path.endsWith('_delete_by_query')) return { body: deleteByQueryStarted(78) };
      return undefined;
    });
    const store = track(cluster.store());
    const request = { endTimeMillis: 5, mode: 'delete' as const, batchSize: 10, timeoutSeconds: 5 };
    const refused = await apiError(store.startTruncation({ index: INDEX, ...request }));
    expect([refused.status, refused.message]).toEqual([
      409,
      `A truncation of ${INDEX} is already running as task ${NODE}:77; wait for it to complete (poll getEsTaskStatus) before starting another.`,
    ]);
    expect(await store.startTruncation({ index: OTHER_INDEX, ...request })).toBe(`${NODE}:78`);
  });

  it('reports task status from _tasks: running, completed, failed, unknown', async () => {
    const cluster = fakeCluster(flavour, (r) => {
      if (r.path === `/_tasks/${NODE}:1`) return { body: taskRunning(1, INDEX) };
      if (r.path === `/_tasks/${NODE}:2`) return { body: taskCompleted(2, INDEX) };
      if (r.path === `/_tasks/${NODE}:3`) return { body: taskFailed(3, INDEX) };
      if (r.path === `/_tasks/${NODE}:4`) return { status: 404, body: taskNotFound(`${NODE}:4`) };
      return undefined;
    });
    const actions = operationsActions(track(cluster.store()));
    const status = async (id: number) => JSON.parse((await callAction(actions, 'getEsTaskStatus', { task: `${NODE}:${id}` })) as string);
    const running = await status(1);
    expect(Object.keys(running)).toEqual(['completed', 'taskId', 'status', 'runTimeNanos']);
    expect(running).toEqual({
      completed: false,
      taskId: `${NODE}:1`,
      status: taskRunning(1, INDEX).task.status,
      runTimeNanos: 1_234_567_890,
    });
    expect(await status(2)).toMatchObject({ completed: true, status: { total: 1000, deleted: 1000, batches: 10 } });
    expect(await status(3)).toMatchObject({
      completed: true,
      error: '1 failures, first: es_rejected_execution_exception: rejected execution of coordinating operation',
    });
    expect(await status(4)).toEqual({ error: `Could not get task status for ${NODE}:4` });
  });

  it('counts truncation tasks: running ones of this prefix in the cluster, finished ones this process saw', async () => {
    const cluster = fakeCluster(flavour, (r) => {
      if (r.path === '/_tasks')
        return {
          body: tasksList([
            { id: 1, index: INDEX },
            { id: 5, index: 'someone_elses_index' },
          ]),
        };
      if (r.path === `/_tasks/${NODE}:2`) return { body: taskCompleted(2, INDEX) };
      if (r.path === `/_tasks/${NODE}:3`) return { body: taskFailed(3, INDEX) };
      return undefined;
    });
    const store = track(cluster.store());
    await store.taskStatus({ node: NODE, id: 2 });
    await store.taskStatus({ node: NODE, id: 3 });
    expect(await store.taskCounts()).toEqual({ running: 1, completed: 1, failed: 1 });
    const list = cluster.calls().find((r) => r.path === '/_tasks')!;
    expect([list.method, list.querystring]).toEqual([
      'GET',
      { actions: 'indices:data/write/delete/byquery', detailed: 'true', group_by: 'none' },
    ]);
  });

  it('is ready when the cluster answers, and says why not when it does not', async () => {
    await expect(track(fakeCluster(flavour, () => undefined).store()).checkReady()).resolves.toBeUndefined();
    const down = fakeCluster(flavour, (r) =>
      r.path === '/' ? { status: 503, body: errorBody('cluster_block_exception', 'not recovered', 503) } : undefined,
    );
    const error = await apiError(track(down.store()).checkReady());
    expect(error.status).toBe(503);
  });

  it('answers 503 naming the cause when the cluster fails a request', async () => {
    const cluster = fakeCluster(flavour, (r) =>
      r.path.endsWith('_stats/store')
        ? {
            status: 503,
            body: {
              error: { type: 'cluster_block_exception', reason: 'blocked by: [SERVICE_UNAVAILABLE/1/state not recovered / initialized];' },
              status: 503,
            },
          }
        : undefined,
    );
    const error = await apiError(track(cluster.store()).indexSizes());
    expect([error.status, error.message]).toEqual([
      503,
      'Elasticsearch answered 503 to the index statistics request: cluster_block_exception: blocked by: [SERVICE_UNAVAILABLE/1/state not recovered / initialized];',
    ]);
  });
});

describe('Elasticsearch dialects', () => {
  it('the stock v9 client cannot talk to Elasticsearch 8 or OpenSearch (why the adapter switches dialect)', async () => {
    for (const flavour of ['elasticsearch8', 'opensearch'] as const) {
      const cluster = fakeCluster(flavour, () => ({ body: statsResponse(flavour, {}) }));
      const client = new Client({ node: 'http://es.test:9200', Connection: cluster.Connection, maxRetries: 0 });
      const failure = await client.indices.stats({ index: '*aspect_v1', metric: 'store' }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(errors.ResponseError);
      expect((failure as errors.ResponseError).statusCode).toBe(flavour === 'elasticsearch8' ? 400 : 406);
      await client.close();
    }
  });

  it('OpenSearch without the product header is refused by the product check unless detected', async () => {
    const cluster = fakeCluster('opensearch', () => ({ body: statsResponse('opensearch', {}) }));
    const pinnedWrong = track(cluster.store({ implementation: 'elasticsearch8' }));
    const error = await apiError(pinnedWrong.indexSizes());
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/^Elasticsearch answered 406/);
    expect(await track(cluster.store({ implementation: 'opensearch' })).indexSizes()).toEqual([]);
    expect(cluster.requests.filter((r) => r.path === '/')).toEqual([]); // pinned: never probed
  });

  it('refuses Elasticsearch 7 with a clear 503', async () => {
    const cluster = fakeCluster('elasticsearch8', (r) =>
      r.path === '/'
        ? { body: { name: 'n', cluster_name: 'c', cluster_uuid: 'u', version: { number: '7.17.9' }, tagline: 'You Know, for Search' } }
        : undefined,
    );
    const error = await apiError(track(cluster.store()).indexSizes());
    expect([error.status, error.message]).toEqual([
      503,
      'Elasticsearch 7.17.9 is not supported: mds needs Elasticsearch 8 or 9, or OpenSearch.',
    ]);
  });

  it('explains a GET / refused for lack of privileges, and retries detection on the next call', async () => {
    let denied = true;
    const cluster = fakeCluster('elasticsearch9', (r) => {
      if (r.path === '/' && denied)
        return {
          status: 403,
          body: { error: { type: 'security_exception', reason: 'action [cluster:monitor/main] is unauthorized' }, status: 403 },
        };
      if (r.path.endsWith('_stats/store')) return { body: statsResponse('elasticsearch9', {}) };
      return undefined;
    });
    const store = track(cluster.store());
    const error = await apiError(store.indexSizes());
    expect(error.status).toBe(503);
    expect(error.message).toMatch(/refused GET \/ \(403\).*ELASTICSEARCH_IMPLEMENTATION/);
    denied = false;
    expect(await store.indexSizes()).toEqual([]);
  });
});

describe('Elasticsearch unreachable or slow', () => {
  const servers: Server[] = [];
  afterEach(() => {
    for (const server of servers.splice(0)) server.close();
  });
  const config = (port: number): ElasticsearchConfig => ({
    backend: 'elasticsearch',
    indexPrefix: '',
    node: `http://127.0.0.1:${port}`,
    requestTimeoutMs: 300,
    implementation: 'auto',
  });

  async function listen(onConnection: (socket: import('node:net').Socket) => void): Promise<number> {
    const server = createServer(onConnection);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as { port: number }).port;
  }

  it('a closed port answers 503 at once, and again on the next call', async () => {
    const port = await listen(() => undefined);
    servers.pop()!.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const store = track(new ElasticsearchStore({ config: config(port) }));
    for (let i = 0; i < 2; i++) {
      const started = Date.now();
      const error = await apiError(store.indexSizes());
      expect(error.status).toBe(503);
      expect(error.message).toMatch(new RegExp(`^Elasticsearch at http://127.0.0.1:${port} is unreachable`));
      // "At once": well before the client's own 30 s request timeout, with room for a busy machine.
      expect(Date.now() - started).toBeLessThan(10_000);
    }
  });

  it('a cluster that never answers gives 503 within the configured timeout', async () => {
    const sockets: import('node:net').Socket[] = [];
    const port = await listen((socket) => sockets.push(socket)); // accepts, never answers
    const store = track(new ElasticsearchStore({ config: config(port) }));
    for (const call of [() => store.indexSizes(), () => store.write([doc(1)]), () => store.taskStatus({ node: 'n', id: 1 })]) {
      const started = Date.now();
      const error = await apiError(call);
      expect(error.status).toBe(503);
      expect(error.message).toMatch(/did not answer .* within 300 ms\.$/);
      // The configured 300 ms bound the wait, not the client's default of 30 s (with room for a busy machine).
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(Date.now() - started).toBeLessThan(10_000);
    }
    for (const socket of sockets) socket.destroy();
  });
});
