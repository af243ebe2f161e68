import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMds, type Mds } from './support/mds';
import { pollTask, T0 } from './support/timeseries-data';

// The operator's job over HTTP: ingest, find the big index, dry-run, truncate, watch it finish, see it shrink.
const HOUR = 3_600_000;
const DATASET = (i: number) => `urn:li:dataset:(urn:li:dataPlatform:hive,db.table_${i % 50},PROD)`;
const INDEX = 'dataset_datasetprofileaspect_v1';

const proposal = (i: number, aspect: Record<string, unknown> = {}) => ({
  entityType: 'dataset',
  entityUrn: DATASET(i),
  changeType: 'UPSERT',
  aspectName: 'datasetProfile',
  aspect: {
    contentType: 'application/json',
    value: JSON.stringify({
      timestampMillis: T0 + i * HOUR,
      rowCount: i * 10,
      columnCount: 12,
      sizeInBytes: i * 4096,
      fieldProfiles: [{ fieldPath: `col_${i}`, nullCount: i, sampleValues: ['a'.repeat(200)] }],
      ...aspect,
    }),
  },
});

let mds: Mds;
let readerToken: string;
const op = (action: string, body: unknown, token?: string | null) => mds.post(`/gms/operations?action=${action}`, body, token);
const sizeOf = async (index: string) => {
  const { body } = await op('getIndexSizes', {});
  return body.value.indexSizes.find((s: any) => s.indexName === index)?.sizeMb as number;
};

beforeAll(async () => {
  mds = await startMds();
  readerToken = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
  const proposals = Array.from({ length: 1000 }, (_, i) => proposal(i));
  const { status, body } = await mds.post('/aspects?action=ingestProposalBatch', { proposals });
  expect([status, body]).toEqual([200, { value: 'success' }]);
  const usage = {
    entityType: 'dashboard',
    entityUrn: 'urn:li:dashboard:(looker,sales)',
    changeType: 'UPSERT',
    aspectName: 'dashboardUsageStatistics',
    aspect: { contentType: 'application/json', value: JSON.stringify({ timestampMillis: T0, viewsCount: 3 }) },
  };
  expect((await mds.post('/api/gms/aspects?action=ingestProposal', { proposal: usage })).body).toEqual({
    value: 'urn:li:dashboard:(looker,sales)',
  });
});
afterAll(() => mds?.close());

describe('ingestion and sizes', () => {
  it('reports every time-series index, largest first, in DataHub’s shape', async () => {
    const { status, body } = await op('getIndexSizes', {});
    expect(status).toBe(200);
    const sizes = body.value.indexSizes;
    expect(sizes.map((s: any) => s.indexName)).toEqual([INDEX, 'dashboard_dashboardusagestatisticsaspect_v1']);
    expect(sizes[0]).toEqual({
      indexName: INDEX,
      entityName: 'dataset',
      aspectName: 'datasetprofile',
      sizeMb: expect.any(Number),
      sizeInMb: sizes[0].sizeMb,
    });
    expect(sizes[0].sizeMb).toBeGreaterThan(sizes[1].sizeMb);
  });

  it('answers the OpenAPI path too', async () => {
    const { status, body } = await mds.clientFor(mds.rootToken).get('/openapi/operations/elasticSearch/getIndexSizes');
    expect(status).toBe(200);
    expect(body.sizes[0]).toEqual({ indexName: INDEX, entityName: 'dataset', aspectName: 'datasetprofile', sizeMb: expect.any(Number) });
  });

  it('overwrites a document written again with the same identity', async () => {
    await mds.post('/aspects?action=ingestProposal', { proposal: proposal(5, { rowCount: 999 }) });
    const { body } = await op('truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: T0 + 599 * HOUR,
    });
    expect(body.value).toMatch(/^Delete 600 out of 1000 rows/);
  });
});

describe('truncation', () => {
  it('dry-runs by default with the byte-exact message, then truncates as a task and the index shrinks', async () => {
    const dry = await op('truncateTimeseriesAspect', { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: T0 + 599 * HOUR });
    expect(dry.body).toEqual({
      value:
        'Delete 600 out of 1000 rows (60.00%). Reindexing the aspect without the deleted records. This was a dry run. Run with dryRun = false to execute.',
    });
    const smallDry = await op('truncateTimeseriesAspect', {
      entityType: 'DATASET',
      aspect: 'DatasetProfile',
      endTimeMillis: T0 + 99 * HOUR,
      dryRun: true,
    });
    expect(smallDry.body.value).toBe(
      'Delete 100 out of 1000 rows (10.00%). Issuing a delete by query request. This was a dry run. Run with dryRun = false to execute.',
    );

    const before = await sizeOf(INDEX);
    const run = await op('truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: T0 + 599 * HOUR,
      dryRun: false,
      batchSize: 100,
    });
    expect(run.status).toBe(200);
    const taskId = run.body.value as string;
    expect(taskId).toMatch(/^[\w-]+:\d+$/);

    const status = await pollTask(mds, taskId, (s) => s.completed);
    expect(status).toMatchObject({ completed: true, taskId, runTimeNanos: expect.any(Number), status: { total: expect.any(Number) } });
    const after = await op('truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'datasetProfile',
      endTimeMillis: T0 + 10_000 * HOUR,
    });
    expect(after.body.value).toMatch(/^Delete 400 out of 400 rows/);
    expect(await sizeOf(INDEX)).toBeLessThan(before);
  });

  it('status of a task nobody started is DataHub’s error text', async () => {
    const { body } = await op('getEsTaskStatus', { nodeId: 'nowhere', taskId: 77 });
    expect(JSON.parse(body.value)).toEqual({ error: 'Could not get task status for nowhere:77' });
  });
});

describe('bad input is a 400 naming the problem', () => {
  const truncate = (params: Record<string, unknown>) =>
    op('truncateTimeseriesAspect', { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: T0, ...params });
  it.each([
    [{ entityType: undefined }, /entityType/],
    [{ endTimeMillis: 'yesterday' }, /endTimeMillis/],
    [{ entityType: 'spaceship' }, /spaceship/],
    [{ aspect: 'schemaMetadata' }, /schemaMetadata/],
    [{ forceDeleteByQuery: true, forceReindex: true }, /forceDeleteByQuery|forceReindex/],
    [{ batchSize: 0 }, /batchSize/],
  ])('truncate with %j', async (params, message) => {
    const { status, body } = await truncate(params);
    expect(status).toBe(400);
    expect(body).toEqual({ status: 400, message: expect.stringMatching(message) });
  });

  it('a malformed task id', async () => {
    const { status, body } = await op('getEsTaskStatus', { task: 'not a task' });
    expect(status).toBe(400);
    expect(body.message).toMatch(/task/);
  });

  it.each([
    ['no timestampMillis', { ...proposal(1), aspect: { contentType: 'application/json', value: '{"rowCount":1}' } }, /timestampMillis/],
    ['a value that is not JSON', { ...proposal(1), aspect: { contentType: 'application/json', value: '{nope' } }, /value/],
  ])('a proposal with %s', async (_name, bad, message) => {
    const { status, body } = await mds.post('/aspects?action=ingestProposal', { proposal: bad });
    expect(status).toBe(400);
    expect(body.message).toMatch(message);
  });
});

describe('privileges', () => {
  it.each([
    ['getIndexSizes', {}, 'User is unauthorized to get index sizes.'],
    [
      'truncateTimeseriesAspect',
      { entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: T0 },
      'User is unauthorized to truncate timeseries index',
    ],
    ['getEsTaskStatus', { task: 'abc:1' }, 'User is unauthorized to get ES task status'],
  ])('a reader calling %s gets 403 with DataHub’s text', async (action, body, message) => {
    const res = await op(action, body, readerToken);
    expect(res).toEqual({ status: 403, body: { status: 403, message } });
  });

  it('no credentials: 401', async () => {
    expect((await op('getIndexSizes', {}, null)).status).toBe(401);
  });
});
