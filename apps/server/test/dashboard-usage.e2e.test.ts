import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError } from './support/datahub-files';
import { upsertAspect } from './support/graphql-docs';
import { startMds, type Mds } from './support/mds';

// A dashboard's usage (Dashboard.usageStats) on a real mds with its time-series store: dashboardUsageStatistics points
// ingested as DataHub's emitters send them (daily buckets with an eventGranularity, absolute points without), read back
// and compared with what DataHub's DashboardUsageStatsResolver computes from the same points (DashboardUsageStatsUtils:
// per-day SUMs, user groups by key, most usage first; DashboardUsageMetricMapper for the absolute points).
const DASHBOARD = 'urn:li:dashboard:(looker,dashboard_usage_board)';
const ALICE = 'urn:li:corpuser:alice';
const BOB = 'urn:li:corpuser:bob';
const CAROL = 'urn:li:corpuser:carol';
const DAVE = 'urn:li:corpuser:dave';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
// A fixed GMT midnight: the query names its range, so nothing depends on the clock.
const D = Math.floor(1_700_000_000_000 / DAY) * DAY;
const DAILY = { unit: 'DAY', multiple: 1 };

const point = (value: object) => ({
  entityType: 'dashboard',
  entityUrn: DASHBOARD,
  aspectName: 'dashboardUsageStatistics',
  changeType: 'UPSERT',
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
});

const USAGE = `query ($urn: String!, $start: Long, $end: Long, $limit: Int) { dashboard(urn: $urn) {
  usageStats(startTimeMillis: $start, endTimeMillis: $end, limit: $limit) {
    buckets { bucket duration resource metrics { uniqueUserCount viewsCount executionsCount } }
    aggregations { uniqueUserCount viewsCount executionsCount users { user { urn } usageCount viewsCount executionsCount } }
    metrics { timestampMillis lastViewed viewsCount executionsCount favoritesCount } } } }`;

let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
  const proposals = [
    point({
      timestampMillis: D + HOUR,
      eventGranularity: DAILY,
      uniqueUserCount: 2,
      viewsCount: 10,
      userCounts: [
        { user: ALICE, usageCount: 3, executionsCount: 1 },
        { user: BOB, usageCount: 5 },
      ],
    }),
    point({
      timestampMillis: D + 5 * HOUR,
      eventGranularity: DAILY,
      viewsCount: 4,
      executionsCount: 2,
      userCounts: [{ user: ALICE, usageCount: 4 }],
    }),
    point({
      timestampMillis: D + 2 * DAY + HOUR,
      eventGranularity: DAILY,
      uniqueUserCount: 1,
      userCounts: [{ user: CAROL, usageCount: 1 }],
    }),
    point({ timestampMillis: D - 10 * DAY, eventGranularity: DAILY, userCounts: [{ user: DAVE, usageCount: 100 }] }),
    point({ timestampMillis: D + 3 * HOUR, viewsCount: 40, favoritesCount: 2, lastViewedAt: D + 2 * HOUR }),
    point({ timestampMillis: D + 2 * DAY, viewsCount: 42, executionsCount: 7 }),
  ];
  const res = await mds.post('/aspects?action=ingestProposalBatch', { proposals });
  expect(res.status).toBe(200);
});
afterAll(() => mds?.close());

const usageOf = async (variables: Record<string, unknown>) => {
  const result = await mds.graphql(USAGE, { urn: DASHBOARD, ...variables });
  expect(graphqlError(result)).toBeUndefined();
  return result.body.data.dashboard.usageStats;
};

describe("Dashboard.usageStats, as DataHub's DashboardUsageStatsResolver answers", () => {
  it('sums the bucketed points of each day in the range, groups their users by usage, and lists the absolute points newest first', async () => {
    const usage = await usageOf({ start: D - 1, end: D + 3 * DAY });
    const bucket = (at: number, uniqueUserCount: number | null, viewsCount: number | null, executionsCount: number | null) => ({
      bucket: at,
      duration: 'DAY',
      resource: DASHBOARD,
      metrics: { uniqueUserCount, viewsCount, executionsCount },
    });
    // Days between reports are filled in; a count no point of the day holds is null.
    expect(usage.buckets).toEqual([bucket(D, 2, 14, 2), bucket(D + DAY, null, null, null), bucket(D + 2 * DAY, 1, null, null)]);
    // DataHub never sets a user's views count (its check of that count is inverted).
    expect(usage.aggregations).toEqual({
      uniqueUserCount: 3,
      viewsCount: 14,
      executionsCount: 2,
      users: [
        { user: { urn: ALICE }, usageCount: 7, viewsCount: null, executionsCount: 1 },
        { user: { urn: BOB }, usageCount: 5, viewsCount: null, executionsCount: null },
        { user: { urn: CAROL }, usageCount: 1, viewsCount: null, executionsCount: null },
      ],
    });
    expect(usage.metrics).toEqual([
      { timestampMillis: D + 2 * DAY, lastViewed: null, viewsCount: 42, executionsCount: 7, favoritesCount: null },
      { timestampMillis: D + 3 * HOUR, lastViewed: D + 2 * HOUR, viewsCount: 40, executionsCount: null, favoritesCount: 2 },
    ]);
  });

  it('limits the absolute points only; without a range every point counts', async () => {
    const limited = await usageOf({ start: D - 1, end: D + 3 * DAY, limit: 1 });
    expect(limited.metrics.map((m: { timestampMillis: number }) => m.timestampMillis)).toEqual([D + 2 * DAY]);
    expect(limited.buckets).toHaveLength(3);
    const all = await usageOf({});
    // From the oldest bucketed day (ten days before) to the newest: 13 days; its user first by usage.
    expect(all.buckets).toHaveLength(13);
    expect(all.buckets[0].bucket).toBe(D - 10 * DAY);
    expect(all.aggregations.users.map((u: { user: { urn: string } }) => u.user.urn)).toEqual([DAVE, ALICE, BOB, CAROL]);
  });

  it('answers empty lists for a dashboard with no points', async () => {
    const quiet = 'urn:li:dashboard:(looker,dashboard_usage_quiet)';
    const info = {
      title: 'Quiet',
      description: '',
      customProperties: {},
      lastModified: { created: { time: 0, actor: ALICE }, lastModified: { time: 0, actor: ALICE } },
    };
    await upsertAspect(mds, 'dashboard', quiet, 'dashboardInfo', info);
    const result = await mds.graphql(USAGE, { urn: quiet });
    expect(graphqlError(result)).toBeUndefined();
    expect(result.body.data.dashboard.usageStats).toEqual({
      buckets: [],
      aggregations: { uniqueUserCount: 0, viewsCount: null, executionsCount: null, users: [] },
      metrics: [],
    });
  });
});
