import { testDatabases } from '@mds/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChildServer } from './support/child';
import { clientOf, datasetProperties, datasetUrn, sharedSecrets, spawnReplica } from './support/replicas';
import { T0, dryRunCount, ingestRange, pollTask, startTruncation, taskStatus } from './support/timeseries-data';

// Two `mds serve` processes on one PostgreSQL database and no Elasticsearch: time series live in the database, so
// what one replica ingests the other reads, both report the same index sizes, and a truncation started on one is
// followed to its end on the other.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const databases = testDatabases();
let a: ChildServer;
let b: ChildServer;

beforeAll(async () => {
  const url = await databases.create();
  const secrets = sharedSecrets();
  [a, b] = await Promise.all([spawnReplica(url, secrets), spawnReplica(url, secrets)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await databases.dropAll();
});

const PROFILED = 'db.profiled';
const profile = (timestampMillis: number, rowCount: number) => ({
  entityType: 'dataset',
  entityUrn: datasetUrn(PROFILED),
  changeType: 'UPSERT',
  aspectName: 'datasetProfile',
  aspect: { contentType: 'application/json', value: JSON.stringify({ timestampMillis, rowCount, columnCount: 4 }) },
  systemMetadata: { runId: `run-${rowCount}`, lastObserved: timestampMillis },
});
const PROFILES = `query ($urn: String!) { dataset(urn: $urn) { datasetProfiles(limit: 10) { timestampMillis rowCount columnCount } } }`;
const INDEX = 'dataset_datasetprofileaspect_v1';

/** getIndexSizes as one replica answers it. */
async function indexSizes(replica: ChildServer): Promise<{ indexName: string; sizeMb: number }[]> {
  const { status, body } = await clientOf(replica).operation('getIndexSizes', {});
  expect(status).toBe(200);
  return body.value.indexSizes;
}

describe('time series shared through PostgreSQL', () => {
  it('a datasetProfile ingested on A is read on B, over GraphQL and Rest.li', async () => {
    expect((await clientOf(a).ingest([datasetProperties(PROFILED, 'profiled on A')])).status).toBe(200);
    const ingested = await clientOf(a).ingest([profile(T0, 10), profile(T0 + 2_000, 30), profile(T0 + 1_000, 20)]);
    expect([ingested.status, ingested.body]).toEqual([200, { value: 'success' }]);

    const graphql = await clientOf(b).graphql(PROFILES, { urn: datasetUrn(PROFILED) });
    expect(graphql.body.errors).toBeUndefined();
    expect(graphql.body.data.dataset.datasetProfiles).toEqual([
      { timestampMillis: T0 + 2_000, rowCount: 30, columnCount: 4 },
      { timestampMillis: T0 + 1_000, rowCount: 20, columnCount: 4 },
      { timestampMillis: T0, rowCount: 10, columnCount: 4 },
    ]);
    const restli = await clientOf(b).post('/aspects?action=getTimeseriesAspectValues', {
      urn: datasetUrn(PROFILED),
      entity: 'dataset',
      aspect: 'datasetProfile',
      latestValue: true,
    });
    expect(restli.status).toBe(200);
    expect(restli.body.value.values).toEqual([
      {
        aspect: { contentType: 'application/json', value: JSON.stringify({ timestampMillis: T0 + 2_000, rowCount: 30, columnCount: 4 }) },
        systemMetadata: expect.objectContaining({ runId: 'run-30' }),
      },
    ]);
  });

  it('both answer the same index sizes', async () => {
    await ingestRange(clientOf(b), 0, 5_000);
    const usage = {
      entityType: 'dashboard',
      entityUrn: 'urn:li:dashboard:(looker,sales)',
      changeType: 'UPSERT',
      aspectName: 'dashboardUsageStatistics',
      aspect: { contentType: 'application/json', value: JSON.stringify({ timestampMillis: T0, viewsCount: 3 }) },
    };
    expect((await clientOf(a).ingest([usage])).status).toBe(200);
    const [fromA, fromB] = [await indexSizes(a), await indexSizes(b)];
    expect(fromA.map((s) => s.indexName)).toEqual([INDEX, 'dashboard_dashboardusagestatisticsaspect_v1']);
    expect(fromA[0]!.sizeMb).toBeGreaterThan(fromA[1]!.sizeMb);
    expect(fromB).toEqual(fromA);
  });

  it('a truncation started on A is followed to completion on B, refused on B while it runs, and its rows are gone on both', async () => {
    await ingestRange(clientOf(a), 5_000, 15_000); // 20,003 rows in the index now, 20,000 of the hive table
    expect(await dryRunCount(clientOf(b), T0 + 4_999)).toEqual({ matching: 5_003, total: 20_003 });
    // Small batches: the task runs for a few seconds, long enough to be seen running from B.
    const started = await startTruncation(clientOf(a), T0 + 4_999, { batchSize: 5, forceDeleteByQuery: true });
    expect(started.status).toBe(200);
    const task: string = started.body.value;
    const refused = await startTruncation(clientOf(b), T0 + 100);
    expect([refused.status, refused.body.message]).toEqual([409, expect.stringContaining(task)]);
    const running = await taskStatus(clientOf(b), task);
    expect(running).toMatchObject({ completed: false, taskId: task, status: { total: 5_003 } });

    const done = await pollTask(clientOf(b), task, (s) => s.completed);
    expect(done).toMatchObject({ completed: true, taskId: task, status: { total: 5_003, deleted: 5_003 } });
    expect(done.error).toBeUndefined();
    expect(await taskStatus(clientOf(a), task)).toEqual(done);
    for (const replica of [a, b]) expect(await dryRunCount(clientOf(replica), T0 + 4_999)).toEqual({ matching: 0, total: 15_000 });
    const points = await clientOf(a).post('/aspects?action=getTimeseriesAspectValues', {
      urn: datasetUrn(PROFILED),
      entity: 'dataset',
      aspect: 'datasetProfile',
    });
    expect(points.body.value.values).toEqual([]);
  });

  it('a reindex started on B is followed on A; the index shrinks, as both report', async () => {
    const before = (await indexSizes(a)).find((s) => s.indexName === INDEX)!.sizeMb;
    const started = await startTruncation(clientOf(b), T0 + 14_999, { batchSize: 500 });
    expect(started.status).toBe(200);
    const done = await pollTask(clientOf(a), started.body.value, (s) => s.completed);
    expect(done).toMatchObject({ completed: true, status: { total: 10_000, deleted: 10_000, created: 5_000 } });
    expect(done.error).toBeUndefined();
    for (const replica of [a, b]) expect(await dryRunCount(clientOf(replica), T0 + 20_000)).toEqual({ matching: 5_000, total: 5_000 });
    const [fromA, fromB] = [await indexSizes(a), await indexSizes(b)];
    expect(fromB).toEqual(fromA);
    expect(fromA.find((s) => s.indexName === INDEX)!.sizeMb).toBeLessThan(before * 0.5);
  });
});
