import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments } from './webui/ui-documents';

// A dataset's Stats tab and a dashboard's summary on a real mds with its time-series store: usage, operations and
// profile points ingested as DataHub's emitters send them, read with the UI's own documents (dataset.graphql) and
// compared with what DataHub computes from the same points with its Elasticsearch aggregations
// (DatasetUsageStatsResolver → UsageServiceUtil, DatasetStatsSummaryResolver, DatasetOperationsStatsResolver →
// OperationsServiceUtil, TimeseriesCapabilitiesResolver, DashboardStatsSummaryResolver, ChartStatsSummaryResolver).
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,usage_stats_sample,PROD)';
const FIXED = 'urn:li:dataset:(urn:li:dataPlatform:hive,usage_stats_fixed_dates,PROD)';
const DASHBOARD = 'urn:li:dashboard:(looker,usage_stats_board)';
const CHART = 'urn:li:chart:(looker,usage_stats_chart)';
const ALICE = 'urn:li:corpuser:alice';
const BOB = 'urn:li:corpuser:bob';
const CAROL = 'urn:li:corpuser:carol';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

const ui = readUiDocuments();
const uiDocument = (name: string) => print(ui.operations.find((op) => op.name === name)!.document);

// Points are placed relative to the start: days well inside the ranges, never near their edges.
const now = Date.now();
const day0 = Math.floor((now - 5 * DAY) / DAY) * DAY;
const proposal = (entityType: string, entityUrn: string, aspectName: string, value: object) => ({
  entityType,
  entityUrn,
  aspectName,
  changeType: 'UPSERT',
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
});
const DAILY = { unit: 'DAY', multiple: 1 };
const usage = (timestampMillis: number, value: object) =>
  proposal('dataset', DATASET, 'datasetUsageStatistics', { timestampMillis, eventGranularity: DAILY, ...value });
const operation = (timestampMillis: number, lastUpdatedTimestamp: number, operationType: string, extra: object = {}) =>
  proposal('dataset', DATASET, 'operation', { timestampMillis, lastUpdatedTimestamp, operationType, ...extra });

let mds: Mds;
let nobody: string;
beforeAll(async () => {
  mds = await startMds();
  // Its refusals are of callers lacking a privilege: DataHub's default policies for all users are deactivated.
  await mds.withoutAllUsersPolicies();
  nobody = await mds.tokenFor('urn:li:corpuser:nobody', null);
  const proposals = [
    proposal('dataset', DATASET, 'datasetProperties', { name: 'usage_stats_sample', customProperties: {} }),
    proposal('dataset', FIXED, 'datasetProperties', { name: 'usage_stats_fixed_dates', customProperties: {} }),
    proposal('dashboard', DASHBOARD, 'dashboardInfo', {
      title: 'Usage board',
      description: '',
      lastModified: { created: { time: 0, actor: 'urn:li:corpuser:datahub' }, lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' } },
      customProperties: {},
    }),
    proposal('chart', CHART, 'chartInfo', {
      title: 'Usage chart',
      description: '',
      lastModified: { created: { time: 0, actor: 'urn:li:corpuser:datahub' }, lastModified: { time: 0, actor: 'urn:li:corpuser:datahub' } },
      customProperties: {},
    }),
    proposal('corpuser', ALICE, 'corpUserInfo', { active: true, displayName: 'Alice A', fullName: 'Alice Anders' }),
    // Day 0: two reports; the later one's totals are the day's (LATEST); users and fields add up over the window.
    usage(day0 + 1 * HOUR, {
      uniqueUserCount: 2,
      totalSqlQueries: 10,
      topSqlQueries: ['select 1'],
      userCounts: [
        { user: BOB, count: 4 },
        { user: ALICE, count: 6, userEmail: 'alice@example.com' },
      ],
      fieldCounts: [
        { fieldPath: 'b', count: 3 },
        { fieldPath: 'a', count: 5 },
      ],
    }),
    usage(day0 + 5 * HOUR, {
      uniqueUserCount: 1,
      totalSqlQueries: 4,
      topSqlQueries: ['select 2', 'select 3'],
      userCounts: [{ user: ALICE, count: 4 }],
      fieldCounts: [{ fieldPath: 'a', count: 2 }],
    }),
    // Day 2 (day 1 has no report: an empty bucket between them, as Elasticsearch's date histogram gives).
    usage(day0 + 2 * DAY + HOUR, {
      uniqueUserCount: 1,
      totalSqlQueries: 7,
      userCounts: [{ user: BOB, count: 7 }],
      fieldCounts: [{ fieldPath: 'c', count: 1 }],
    }),
    // Sixty days ago: outside a month, inside ALL.
    usage(now - 60 * DAY, { uniqueUserCount: 1, totalSqlQueries: 50, userCounts: [{ user: CAROL, count: 100 }] }),
    // Fixed dates either side of midnight in New York (UTC-5 in January).
    proposal('dataset', FIXED, 'datasetUsageStatistics', {
      timestampMillis: Date.parse('2025-01-10T03:00:00Z'),
      eventGranularity: DAILY,
      totalSqlQueries: 1,
    }),
    proposal('dataset', FIXED, 'datasetUsageStatistics', {
      timestampMillis: Date.parse('2025-01-10T12:00:00Z'),
      eventGranularity: DAILY,
      totalSqlQueries: 2,
    }),
    // Operations, counted as distinct lastUpdatedTimestamps per type and per day of lastUpdatedTimestamp.
    operation(now - 3 * DAY, day0 + HOUR, 'INSERT'),
    operation(now - 3 * DAY + 1, day0 + HOUR, 'INSERT'),
    operation(now - 3 * DAY + 2, day0 + 2 * HOUR, 'INSERT'),
    operation(now - 3 * DAY + 3, day0 + 3 * HOUR, 'CUSTOM', { customOperationType: 'VACUUM' }),
    operation(now - 3 * DAY + 4, day0 + 2 * DAY + HOUR, 'UPDATE'),
    operation(now - 40 * DAY, now - 40 * DAY, 'DELETE'),
    proposal('dataset', DATASET, 'datasetProfile', { timestampMillis: now - 10 * DAY, rowCount: 3, columnCount: 2 }),
    // A dashboard: absolute points (no granularity) give its view count, daily ones its users.
    proposal('dashboard', DASHBOARD, 'dashboardUsageStatistics', { timestampMillis: now - 2 * DAY, viewsCount: 40 }),
    proposal('dashboard', DASHBOARD, 'dashboardUsageStatistics', { timestampMillis: now - DAY, viewsCount: 42 }),
    proposal('dashboard', DASHBOARD, 'dashboardUsageStatistics', {
      timestampMillis: now - 2 * DAY,
      eventGranularity: DAILY,
      userCounts: [
        { user: ALICE, usageCount: 3 },
        { user: BOB, usageCount: 5 },
      ],
    }),
    proposal('dashboard', DASHBOARD, 'dashboardUsageStatistics', {
      timestampMillis: now - 40 * DAY,
      eventGranularity: DAILY,
      userCounts: [{ user: CAROL, usageCount: 100 }],
    }),
  ];
  const res = await mds.post('/aspects?action=ingestProposalBatch', { proposals });
  expect(res.status).toBe(200);
});
afterAll(() => mds?.close());

const EMPTY_DAY = { bucket: day0 + DAY, metrics: { topSqlQueries: null } };

describe("a dataset's usage (DatasetUsageStatsResolver, UsageServiceUtil)", () => {
  it("getRecentQueries: one bucket a day from the first report to the last, each with the day's newest top queries", async () => {
    const result = await mds.graphql(uiDocument('getRecentQueries'), { urn: DATASET });
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.dataset.usageStats.buckets).toEqual([
      { bucket: day0, metrics: { topSqlQueries: ['select 2', 'select 3'] } },
      EMPTY_DAY,
      { bucket: day0 + 2 * DAY, metrics: { topSqlQueries: null } },
    ]);
  });

  it('getLastMonthUsageAggregations: users and fields summed by key, the total the sum of the days', async () => {
    const result = await mds.graphql(uiDocument('getLastMonthUsageAggregations'), { urn: DATASET });
    expect(graphqlError(result)).toBeUndefined();
    const { aggregations } = result.body.data.dataset.usageStats;
    expect(aggregations).toMatchObject({
      uniqueUserCount: 2,
      // day 0's newest report (4) and day 2's (7); the 60-day-old report is outside the month
      totalSqlQueries: 11,
      fields: [
        { fieldName: 'a', count: 7 },
        { fieldName: 'b', count: 3 },
        { fieldName: 'c', count: 1 },
      ],
    });
    expect(aggregations.users).toEqual([
      {
        user: {
          urn: ALICE,
          type: 'CORP_USER',
          username: 'alice',
          properties: expect.objectContaining({ displayName: 'Alice A', fullName: 'Alice Anders' }),
          editableProperties: null,
        },
        count: 10,
        userEmail: 'alice@example.com',
      },
      { user: { urn: BOB, type: 'CORP_USER', username: 'bob', properties: null, editableProperties: null }, count: 11, userEmail: null },
    ]);
  });

  it('getTimeRangeUsageAggregations: from the start the UI gives; ALL reaches every report', async () => {
    const doc = uiDocument('getTimeRangeUsageAggregations');
    const month = await mds.graphql(doc, { urn: DATASET, timeRange: 'MONTH', startTime: now - 30 * DAY, timeZone: 'UTC' });
    expect(graphqlError(month)).toBeUndefined();
    expect(month.body.data.dataset.usageStats.aggregations).toMatchObject({ uniqueUserCount: 2, totalSqlQueries: 11 });
    const all = await mds.graphql(doc, { urn: DATASET, timeRange: 'ALL', timeZone: 'UTC' });
    expect(all.body.data.dataset.usageStats.aggregations).toMatchObject({ uniqueUserCount: 3, totalSqlQueries: 61 });
    expect(all.body.data.dataset.usageStats.aggregations.users.map((u: { user: { urn: string } }) => u.user.urn)).toEqual([
      ALICE,
      BOB,
      CAROL,
    ]);
  });

  it('days are calendar days of the time zone asked (GMT when it is unknown)', async () => {
    const query = `query ($urn: String!, $zone: String) { dataset(urn: $urn) { usageStats(range: ALL, timeZone: $zone) {
      buckets { bucket duration resource metrics { totalSqlQueries } } } } }`;
    const buckets = async (zone: string | null) => (await mds.graphql(query, { urn: FIXED, zone })).body.data.dataset.usageStats.buckets;
    expect(await buckets('America/New_York')).toEqual([
      { bucket: Date.parse('2025-01-09T05:00:00Z'), duration: 'DAY', resource: FIXED, metrics: { totalSqlQueries: 1 } },
      { bucket: Date.parse('2025-01-10T05:00:00Z'), duration: 'DAY', resource: FIXED, metrics: { totalSqlQueries: 2 } },
    ]);
    const utc = [{ bucket: Date.parse('2025-01-10T00:00:00Z'), duration: 'DAY', resource: FIXED, metrics: { totalSqlQueries: 2 } }];
    expect(await buckets(null)).toEqual(utc);
    expect(await buckets('Not/AZone')).toEqual(utc);
  });

  it('a usage query without a range is refused with an error naming it', async () => {
    const result = await mds.graphql(`{ dataset(urn: "${DATASET}") { usageStats { aggregations { totalSqlQueries } } } }`);
    expect(graphqlError(result)).toMatchObject({ message: expect.stringContaining("'range' is required"), code: 400 });
  });

  it("statsSummary: the month's query count, users, and the top users by queries", async () => {
    const result = await mds.graphql(
      `query ($urn: String!) { dataset(urn: $urn) { statsSummary { queryCountLast30Days uniqueUserCountLast30Days
      topUsersLast30Days { urn username } } } }`,
      { urn: DATASET },
    );
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.dataset.statsSummary).toEqual({
      queryCountLast30Days: 11,
      uniqueUserCountLast30Days: 2,
      topUsersLast30Days: [
        { urn: BOB, username: 'bob' },
        { urn: ALICE, username: 'alice' },
      ],
    });
  });
});

const NO_TOTALS = {
  totalInserts: null,
  totalUpdates: null,
  totalDeletes: null,
  totalCreates: null,
  totalAlters: null,
  totalDrops: null,
  totalCustoms: null,
};

describe("a dataset's operations (DatasetOperationsStatsResolver, OperationsServiceUtil)", () => {
  it('getOperationsStats: distinct update times per type over the month, custom types by name', async () => {
    const result = await mds.graphql(uiDocument('getOperationsStats'), { urn: DATASET, range: 'MONTH' });
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.dataset.operationsStats.aggregations).toEqual({
      ...NO_TOTALS,
      totalOperations: 4,
      totalInserts: 2,
      totalUpdates: 1,
      totalCustoms: 1,
      customOperationsMap: [{ key: 'VACUUM', value: 1 }],
    });
  });

  it('getOperationsStatsBuckets: one bucket per day of lastUpdatedTimestamp holding operations, oldest first', async () => {
    const result = await mds.graphql(uiDocument('getOperationsStatsBuckets'), { urn: DATASET, input: { range: 'YEAR', timeZone: 'UTC' } });
    expect(graphqlError(result)).toBeUndefined();
    const { buckets, aggregations } = result.body.data.dataset.operationsStats;
    expect(aggregations).toMatchObject({ totalOperations: 5, totalDeletes: 1 });
    expect(buckets).toEqual([
      {
        bucket: Math.floor((now - 40 * DAY) / DAY) * DAY,
        aggregations: { ...NO_TOTALS, totalOperations: 1, totalDeletes: 1, customOperationsMap: null },
      },
      {
        bucket: day0,
        aggregations: {
          ...NO_TOTALS,
          totalOperations: 3,
          totalInserts: 2,
          totalCustoms: 1,
          customOperationsMap: [{ key: 'VACUUM', value: 1 }],
        },
      },
      { bucket: day0 + 2 * DAY, aggregations: { ...NO_TOTALS, totalOperations: 1, totalUpdates: 1, customOperationsMap: null } },
    ]);
  });
});

describe("a dataset's time-series capabilities (TimeseriesCapabilitiesResolver)", () => {
  it('getDatasetTimeseriesCapability: the oldest point of each kind', async () => {
    const result = await mds.graphql(uiDocument('getDatasetTimeseriesCapability'), { urn: DATASET });
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.dataset.timeseriesCapabilities).toEqual({
      assetStats: { oldestOperationTime: now - 40 * DAY, oldestDatasetUsageTime: now - 60 * DAY, oldestDatasetProfileTime: now - 10 * DAY },
    });
  });
});

describe('dashboards and charts (DashboardStatsSummaryResolver, ChartStatsSummaryResolver)', () => {
  it("a dashboard's summary: the newest absolute view count, and the month's users by usage", async () => {
    const result = await mds.graphql(
      `query ($urn: String!) { dashboard(urn: $urn) { statsSummary { viewCount viewCountLast30Days
      uniqueUserCountLast30Days topUsersLast30Days { urn } } } }`,
      { urn: DASHBOARD },
    );
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.dashboard.statsSummary).toEqual({
      viewCount: 42,
      viewCountLast30Days: null,
      uniqueUserCountLast30Days: 2,
      topUsersLast30Days: [{ urn: BOB }, { urn: ALICE }],
    });
  });

  it("a chart's summary is null, as DataHub's", async () => {
    const result = await mds.graphql(`query ($urn: String!) { chart(urn: $urn) { urn statsSummary { viewCount } } }`, { urn: CHART });
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.chart).toEqual({ urn: CHART, statsSummary: null });
  });
});

describe('privileges (VIEW_DATASET_USAGE, VIEW_DATASET_OPERATIONS, VIEW_DATASET_PROFILE)', () => {
  it('a caller without them gets null usage and summaries, empty operation stats and no oldest times', async () => {
    const result = await mds.graphql(
      `query ($urn: String!, $board: String!) {
        dataset(urn: $urn) { usageStats(range: MONTH) { buckets { bucket } } statsSummary { queryCountLast30Days }
          operationsStats { buckets { bucket } aggregations { totalOperations } }
          timeseriesCapabilities { assetStats { oldestOperationTime oldestDatasetUsageTime oldestDatasetProfileTime } } }
        dashboard(urn: $board) { statsSummary { viewCount } } }`,
      { urn: DATASET, board: DASHBOARD },
      nobody,
    );
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data).toEqual({
      dataset: {
        usageStats: null,
        statsSummary: null,
        operationsStats: { buckets: null, aggregations: null },
        timeseriesCapabilities: { assetStats: { oldestOperationTime: null, oldestDatasetUsageTime: null, oldestDatasetProfileTime: null } },
      },
      dashboard: { statsSummary: null },
    });
  });
});

describe('reportOperation (ReportOperationResolver)', () => {
  const REPORTED = 'urn:li:dataset:(urn:li:dataPlatform:hive,usage_stats_reported,PROD)';
  const REPORT = `mutation ($input: ReportOperationInput!) { reportOperation(input: $input) }`;
  const input = {
    urn: REPORTED,
    operationType: 'CUSTOM',
    customOperationType: 'VACUUM',
    sourceType: 'DATA_PLATFORM',
    customProperties: [{ key: 'ticket', value: 'OPS-1' }],
    partition: '2025-01-01',
    numAffectedRows: 12,
    timestampMillis: now - DAY,
  };

  it('writes an operation point as the caller, read back by operations and operationsStats', async () => {
    const editor = await mds.tokenFor('urn:li:corpuser:editor', 'urn:li:dataHubRole:Editor');
    const result = await mds.graphql(REPORT, { input }, editor);
    expect(result.body).toEqual({ data: { reportOperation: 'true' } });
    const read = await mds.graphql(
      `query ($urn: String!) { dataset(urn: $urn) {
      operations { timestampMillis lastUpdatedTimestamp actor operationType customOperationType sourceType numAffectedRows partition customProperties { key value } }
      operationsStats(input: { range: WEEK }) { aggregations { totalOperations totalCustoms customOperationsMap { key value } } } } }`,
      { urn: REPORTED },
    );
    expect(read.body.data.dataset).toEqual({
      operations: [
        {
          timestampMillis: now - DAY,
          lastUpdatedTimestamp: now - DAY,
          actor: 'urn:li:corpuser:editor',
          operationType: 'CUSTOM',
          customOperationType: 'VACUUM',
          sourceType: 'DATA_PLATFORM',
          numAffectedRows: 12,
          partition: '2025-01-01',
          customProperties: [{ key: 'ticket', value: 'OPS-1' }],
        },
      ],
      operationsStats: { aggregations: { totalOperations: 1, totalCustoms: 1, customOperationsMap: [{ key: 'VACUUM', value: 1 }] } },
    });
  });

  it('refuses a caller without EDIT_ENTITY_OPERATIONS (403) and an entity that is not a dataset (400)', async () => {
    const reader = await mds.tokenFor('urn:li:corpuser:reader', 'urn:li:dataHubRole:Reader');
    const refused = await mds.graphql(REPORT, { input: { ...input, timestampMillis: now - 2 * DAY } }, reader);
    expect(graphqlError(refused)).toMatchObject({ code: 403 });
    const chart = await mds.graphql(REPORT, { input: { ...input, urn: CHART } });
    expect(graphqlError(chart)).toEqual({ message: 'Unable to report operation. Invalid entity type chart provided.', code: 400 });
    // MANUAL is in DataHub's GraphQL enum but not in its model's OperationSourceType: refused as the model refuses it.
    const manual = await mds.graphql(REPORT, { input: { ...input, sourceType: 'MANUAL', timestampMillis: now - 3 * DAY } });
    expect(graphqlError(manual)).toMatchObject({ code: 422, message: expect.stringContaining('/sourceType') });
    const read = await mds.graphql(`query ($urn: String!) { dataset(urn: $urn) { operations { timestampMillis } } }`, { urn: REPORTED });
    expect(read.body.data.dataset.operations).toEqual([{ timestampMillis: now - DAY }]);
  });
});
