import { describe, expect, it } from 'vitest';
import { datasetUsage, dayStart, operationsStats, rangeStart } from '../../src/service/usage-stats';

// The computations behind usageStats / operationsStats, point by point against what DataHub's Elasticsearch
// aggregations give (UsageServiceUtil, OperationsServiceUtil, TimeseriesUtils); the GraphQL side is tested in
// apps/server/test/usage-stats.e2e.test.ts.
const DAY = 24 * 60 * 60 * 1000;

describe('day buckets (a date histogram of calendar days in a time zone)', () => {
  it('a day of 23 hours when clocks go forward, and the next day starts at the right local midnight', () => {
    // 2025-03-09: New York moves from UTC-5 to UTC-4 at 02:00 local time.
    expect(dayStart(Date.parse('2025-03-09T12:00:00Z'), 'America/New_York')).toBe(Date.parse('2025-03-09T05:00:00Z'));
    expect(dayStart(Date.parse('2025-03-10T12:00:00Z'), 'America/New_York')).toBe(Date.parse('2025-03-10T04:00:00Z'));
    const usage = datasetUsage(
      [
        { timestampMillis: Date.parse('2025-03-08T12:00:00Z'), totalSqlQueries: 1 },
        { timestampMillis: Date.parse('2025-03-10T12:00:00Z'), totalSqlQueries: 2 },
      ],
      'America/New_York',
    );
    expect(usage.buckets.map((b) => b.bucket)).toEqual(
      ['2025-03-08T05:00:00Z', '2025-03-09T05:00:00Z', '2025-03-10T04:00:00Z'].map((t) => Date.parse(t)),
    );
  });

  it('ranges start a day and a millisecond before the span DataHub names (ALL: the epoch)', () => {
    const now = Date.parse('2025-01-31T00:00:00Z');
    expect(rangeStart('MONTH', now)).toBe(now - 31 * DAY - 1);
    expect(rangeStart('WEEK', now)).toBe(now - 8 * DAY - 1);
    expect(rangeStart('ALL', now)).toBe(0);
  });
});

describe('LATEST, SUM and CARDINALITY as Elasticsearch computes them', () => {
  it("a day's totals are its newest report's; a report without the field does not hide an older one's", () => {
    const usage = datasetUsage([
      { timestampMillis: 1000, totalSqlQueries: 5, uniqueUserCount: 2 },
      { timestampMillis: 2000, uniqueUserCount: 3 },
    ]);
    expect(usage.buckets).toEqual([{ bucket: 0, metrics: { totalSqlQueries: 5, uniqueUserCount: 3 } }]);
    expect(usage.aggregations).toEqual({ uniqueUserCount: 0, users: [], fields: [], totalSqlQueries: 5 });
  });

  it('no points: no buckets, no total', () => {
    expect(datasetUsage([])).toEqual({ buckets: [], aggregations: { uniqueUserCount: 0, users: [], fields: [] } });
  });

  it('operations count distinct update times; a type outside the named ones counts in the total only', () => {
    const stats = operationsStats([
      { timestampMillis: 1, lastUpdatedTimestamp: 10, operationType: 'INSERT' },
      { timestampMillis: 2, lastUpdatedTimestamp: 10, operationType: 'INSERT' },
      { timestampMillis: 3, lastUpdatedTimestamp: 11, operationType: 'UNKNOWN' },
    ]);
    expect(stats.aggregations).toEqual({ totalOperations: 2, totalInserts: 1 });
    expect(stats.buckets).toEqual([{ bucket: 0, aggregations: { totalOperations: 2, totalInserts: 1 } }]);
  });
});
