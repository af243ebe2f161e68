/**
 * Usage and operation statistics computed from an entity's time-series points, as DataHub computes them with
 * Elasticsearch aggregations (UsageServiceUtil, OperationsServiceUtil, DashboardUsageStatsUtils over
 * ESAggregatedStatsDAO). Pure functions of the points: no GraphQL, no store.
 *
 * DataHub stores a point's collections (`userCounts`, `fieldCounts`) as extra documents, one per element, and
 * aggregates with date histograms (calendar days in a time zone, empty days between the first and the last filled in),
 * `terms` groupings ordered by key, LATEST (the value of the newest document holding the field), SUM and CARDINALITY.
 * The functions here give the same rows from the points themselves.
 */

type Point = Record<string, unknown>;

const DAY_MILLIS = 24 * 60 * 60 * 1000;

/** DataHub's usage time ranges (UsageTimeRange; GraphQL's TimeRange). */
export type UsageRange = 'DAY' | 'WEEK' | 'MONTH' | 'QUARTER' | 'HALF_YEAR' | 'YEAR' | 'ALL';

/** Days looked back per range; the start is one millisecond earlier still (DataHub's TimeseriesUtils.convertRangeToStartTime). */
const RANGE_DAYS: Readonly<Record<Exclude<UsageRange, 'ALL'>, number>> = {
  DAY: 2,
  WEEK: 8,
  MONTH: 31,
  QUARTER: 92,
  HALF_YEAR: 183,
  YEAR: 366,
};

/** The inclusive start of `range` ending at `now`. */
export function rangeStart(range: UsageRange, now: number): number {
  return range === 'ALL' ? 0 : now - (RANGE_DAYS[range] * DAY_MILLIS + 1);
}

const number = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const records = (value: unknown): Point[] =>
  Array.isArray(value) ? value.filter((v): v is Point => typeof v === 'object' && v !== null && !Array.isArray(v)) : [];
const timestampOf = (point: Point) => number(point.timestampMillis) ?? 0;

/** Formatters per time zone; a zone Intl does not know is GMT, as DataHub falls back to GMT for a zone Java refuses. */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(timeZone: string | undefined): Intl.DateTimeFormat {
  const zone = timeZone ?? 'UTC';
  let formatter = formatters.get(zone);
  if (!formatter) {
    const options: Intl.DateTimeFormatOptions = {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    };
    try {
      formatter = new Intl.DateTimeFormat('en-US', { ...options, timeZone: zone });
    } catch {
      formatter = formatterOf('UTC');
    }
    if (formatters.size < 1000) formatters.set(zone, formatter);
  }
  return formatter;
}

/** Local calendar fields of `time` in a zone, as a UTC instant (the local wall clock read as if it were UTC). */
function wallClock(time: number, formatter: Intl.DateTimeFormat): number {
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(time))) if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** The start (epoch millis) of the calendar day holding `time` in `timeZone` (GMT when absent or unknown). */
export function dayStart(time: number, timeZone?: string): number {
  const formatter = formatterOf(timeZone);
  const wall = wallClock(time, formatter);
  const localMidnight = Math.floor(wall / DAY_MILLIS) * DAY_MILLIS;
  // The offset at the guess settles within two steps (a change of offset near midnight moves it once).
  let guess = localMidnight - (wall - Math.floor(time / 1000) * 1000);
  for (let i = 0; i < 2; i++) guess = localMidnight - (wallClock(guess, formatter) - guess);
  return guess;
}

/** Every day start from the first point's day to the last one's (Elasticsearch's date histogram fills empty days). */
function dayBuckets(times: readonly number[], timeZone?: string): number[] {
  if (times.length === 0) return [];
  const first = dayStart(Math.min(...times), timeZone);
  const last = dayStart(Math.max(...times), timeZone);
  const days: number[] = [];
  for (let day = first; day <= last; day = dayStart(day + 1.5 * DAY_MILLIS, timeZone)) days.push(day);
  return days;
}

/**
 * Points by the day of their timestamp, each of every day from the first point's to the last one's (none: an empty
 * day), oldest first: Elasticsearch's date histogram of the points.
 */
function dailyPoints(points: readonly Point[], timeZone?: string): [number, Point[]][] {
  const byDay = new Map<number, Point[]>();
  for (const point of points) {
    const day = dayStart(timestampOf(point), timeZone);
    const docs = byDay.get(day);
    if (docs) docs.push(point);
    else byDay.set(day, [point]);
  }
  return dayBuckets(points.map(timestampOf), timeZone).map((day) => [day, byDay.get(day) ?? []]);
}

/**
 * LATEST of a field over documents: Elasticsearch's terms of the field with their newest timestamp, the term with the
 * newest one (ties: more documents, then the smaller key). Undefined when no document holds the field.
 */
function latest(docs: readonly { time: number; value: unknown }[]): unknown {
  const terms = new Map<string, { value: unknown; time: number; count: number }>();
  for (const { time, value } of docs) {
    if (value === undefined || value === null) continue;
    const key = typeof value === 'string' ? value : JSON.stringify(value);
    const term = terms.get(key);
    if (term) {
      term.time = Math.max(term.time, time);
      term.count++;
    } else terms.set(key, { value, time, count: 1 });
  }
  let best: [string, { value: unknown; time: number; count: number }] | undefined;
  for (const entry of terms) {
    const [key, term] = entry;
    if (
      !best ||
      term.time > best[1].time ||
      (term.time === best[1].time && (term.count > best[1].count || (term.count === best[1].count && key < best[0])))
    )
      best = entry;
  }
  return best?.[1].value;
}

const byKey = <T>(groups: Map<string, T>): [string, T][] => [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** One element of a collection per document, with its point's timestamp (DataHub's exploded documents). */
function exploded(points: readonly Point[], collection: string, key: string): Map<string, { time: number; element: Point }[]> {
  const groups = new Map<string, { time: number; element: Point }[]>();
  for (const point of points) {
    for (const element of records(point[collection])) {
      const id = element[key];
      if (typeof id !== 'string') continue;
      const group = groups.get(id) ?? [];
      group.push({ time: timestampOf(point), element });
      groups.set(id, group);
    }
  }
  return groups;
}

const sum = (values: readonly unknown[]) => values.reduce<number>((total, v) => total + (number(v) ?? 0), 0);

export interface DatasetUsageBucket {
  bucket: number;
  metrics: { uniqueUserCount?: number; totalSqlQueries?: number; topSqlQueries?: string[] };
}
export interface DatasetUsage {
  buckets: DatasetUsageBucket[];
  aggregations: {
    uniqueUserCount: number;
    users: { user: string; count: number; userEmail?: string }[];
    fields: { fieldName: string; count: number }[];
    totalSqlQueries?: number;
  };
}

/**
 * A dataset's usage from its `datasetUsageStatistics` points within the window (UsageServiceUtil.query): daily buckets
 * with the LATEST uniqueUserCount, totalSqlQueries and topSqlQueries of each day; users and fields summed over the
 * window, by key; the total of queries is the sum of the days'.
 */
export function datasetUsage(points: readonly Point[], timeZone?: string): DatasetUsage {
  const buckets = dailyPoints(points, timeZone).map(([bucket, docs]): DatasetUsageBucket => {
    const latestOf = (field: string) => latest(docs.map((point) => ({ time: timestampOf(point), value: point[field] })));
    const metrics: DatasetUsageBucket['metrics'] = {};
    const users = number(latestOf('uniqueUserCount'));
    const queries = number(latestOf('totalSqlQueries'));
    const top = latestOf('topSqlQueries');
    if (users !== undefined) metrics.uniqueUserCount = users;
    if (queries !== undefined) metrics.totalSqlQueries = queries;
    if (Array.isArray(top)) metrics.topSqlQueries = top.map(String);
    return { bucket, metrics };
  });
  const users = byKey(exploded(points, 'userCounts', 'user')).map(([user, docs]) => {
    const email = latest(docs.map(({ time, element }) => ({ time, value: element.userEmail })));
    return { user, count: sum(docs.map(({ element }) => element.count)), ...(typeof email === 'string' ? { userEmail: email } : {}) };
  });
  const fields = byKey(exploded(points, 'fieldCounts', 'fieldPath')).map(([fieldName, docs]) => ({
    fieldName,
    count: sum(docs.map(({ element }) => element.count)),
  }));
  const daily = buckets.map((b) => b.metrics.totalSqlQueries).filter((n) => n !== undefined);
  return {
    buckets,
    aggregations: { uniqueUserCount: users.length, users, fields, ...(daily.length ? { totalSqlQueries: sum(daily) } : {}) },
  };
}

/** The users of a usage, most queries first (a stable sort of the key order), at most `max` (DatasetStatsSummaryResolver). */
export const topUsers = (users: readonly { user: string; count: number }[], max = 5): string[] =>
  [...users]
    .sort((a, b) => b.count - a.count)
    .slice(0, max)
    .map((u) => u.user);

const OPERATION_TOTALS: Readonly<Record<string, keyof OperationsAggregations>> = {
  INSERT: 'totalInserts',
  UPDATE: 'totalUpdates',
  DELETE: 'totalDeletes',
  CREATE: 'totalCreates',
  ALTER: 'totalAlters',
  DROP: 'totalDrops',
  CUSTOM: 'totalCustoms',
};

export interface OperationsAggregations {
  totalOperations?: number;
  totalInserts?: number;
  totalUpdates?: number;
  totalDeletes?: number;
  totalCreates?: number;
  totalAlters?: number;
  totalDrops?: number;
  totalCustoms?: number;
  /** customOperationType → operations, by key */
  customOperationsMap?: [string, number][];
}
export interface OperationsStats {
  buckets: { bucket: number; aggregations: OperationsAggregations }[];
  aggregations: OperationsAggregations;
}

/** CARDINALITY of lastUpdatedTimestamp per value of `field`, by key: the distinct update times of each type. */
function distinctUpdates(points: readonly Point[], field: string): [string, number][] {
  const groups = new Map<string, Set<number>>();
  for (const point of points) {
    const key = point[field];
    const updated = number(point.lastUpdatedTimestamp);
    if (typeof key !== 'string') continue;
    const set = groups.get(key) ?? new Set<number>();
    if (updated !== undefined) set.add(updated);
    groups.set(key, set);
  }
  return byKey(groups).map(([key, set]) => [key, set.size]);
}

/** Totals by operation type as OperationsServiceUtil sums them (no row: nothing set, not even the total). */
function operationTotals(points: readonly Point[], customsAlways: boolean): OperationsAggregations {
  const rows = distinctUpdates(points, 'operationType');
  const result: OperationsAggregations = {};
  if (rows.length === 0) return result;
  let total = 0;
  for (const [type, count] of rows) {
    total += count;
    const field = OPERATION_TOTALS[type];
    if (field && field !== 'customOperationsMap') result[field] = count;
  }
  result.totalOperations = total;
  if (customsAlways ? total > 0 : (result.totalCustoms ?? 0) > 0) {
    const customs = distinctUpdates(points, 'customOperationType');
    if (customs.length) result.customOperationsMap = customs;
  }
  return result;
}

/**
 * A dataset's operation statistics from its `operation` points within the window (OperationsServiceUtil.query): per
 * day of lastUpdatedTimestamp (days holding operations only, oldest first) and over the window, the distinct update
 * times of each operation type and of each custom type.
 */
export function operationsStats(points: readonly Point[], timeZone?: string): OperationsStats {
  const byDay = new Map<number, Point[]>();
  for (const point of points) {
    const updated = number(point.lastUpdatedTimestamp);
    if (updated === undefined) continue;
    const day = dayStart(updated, timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), point]);
  }
  const buckets = [...byDay]
    .map(([bucket, docs]) => ({ bucket, aggregations: operationTotals(docs, true) }))
    .filter((b) => b.aggregations.totalOperations !== undefined)
    .sort((a, b) => a.bucket - b.bucket);
  return { buckets, aggregations: operationTotals(points, false) };
}

/** One user's usage of a dashboard; a count no point holds is absent (DataHub's zero cardinality leaves it null). */
export interface DashboardUserUsage {
  user: string;
  usageCount?: number;
  executionsCount?: number;
}

/** A sum over documents, or undefined when none holds the field (SUM with CARDINALITY 0 in DataHub's rows). */
const sumIfHeld = (values: readonly unknown[]) => (values.some((v) => number(v) !== undefined) ? sum(values) : undefined);

/**
 * The users of a dashboard's points (DashboardUsageStatsUtils.getUserUsageCounts): `userCounts` grouped by user (key
 * order), usageCount and executionsCount summed, most usage first (a user without usageCount as 0, where DataHub's
 * comparator fails). DataHub's views count per user is never set (its check of the field is inverted), so none here.
 */
export function dashboardUsers(points: readonly Point[]): DashboardUserUsage[] {
  return byKey(exploded(points, 'userCounts', 'user'))
    .map(([user, docs]): DashboardUserUsage => {
      const usageCount = sumIfHeld(docs.map(({ element }) => element.usageCount));
      const executionsCount = sumIfHeld(docs.map(({ element }) => element.executionsCount));
      return { user, ...(usageCount !== undefined ? { usageCount } : {}), ...(executionsCount !== undefined ? { executionsCount } : {}) };
    })
    .sort((a, b) => (b.usageCount ?? 0) - (a.usageCount ?? 0));
}

export interface DashboardUsageBucket {
  bucket: number;
  metrics: { uniqueUserCount?: number; viewsCount?: number; executionsCount?: number };
}

/**
 * A dashboard's usage from its bucketed points (DashboardUsageStatsUtils.getBuckets and getAggregations): daily (GMT)
 * buckets summing uniqueUserCount, viewsCount and executionsCount; users as `dashboardUsers`; views and executions
 * summed over the buckets holding them.
 */
export function dashboardUsage(points: readonly Point[]): {
  buckets: DashboardUsageBucket[];
  aggregations: { users: DashboardUserUsage[]; uniqueUserCount: number; viewsCount?: number; executionsCount?: number };
} {
  const buckets = dailyPoints(points).map(([bucket, docs]): DashboardUsageBucket => {
    const metrics: DashboardUsageBucket['metrics'] = {};
    for (const field of ['uniqueUserCount', 'viewsCount', 'executionsCount'] as const) {
      const total = sumIfHeld(docs.map((point) => point[field]));
      if (total !== undefined) metrics[field] = total;
    }
    return { bucket, metrics };
  });
  const users = dashboardUsers(points);
  const viewsCount = sumIfHeld(buckets.map((b) => b.metrics.viewsCount));
  const executionsCount = sumIfHeld(buckets.map((b) => b.metrics.executionsCount));
  return {
    buckets,
    aggregations: {
      users,
      uniqueUserCount: users.length,
      ...(viewsCount !== undefined ? { viewsCount } : {}),
      ...(executionsCount !== undefined ? { executionsCount } : {}),
    },
  };
}
