import { findEntityOfUrn, formatFixed2 } from '@mds/core';
import type { EntityType } from '@mds/schema';
import type { EventFilter, GroupColumn, TimeWindow, UsageEventStore } from './store';

// The Analytics page's usage charts and highlights, computed from the stored usage events as DataHub's
// GetChartsResolver and GetHighlightsResolver compute them from its `datahub_usage_event` index (AnalyticsService's
// date histograms, terms and cardinality aggregations), with the same titles, columns, windows and limits. Calendar
// dates are UTC (DataHub uses its server's time zone).

export type DateInterval = 'DAY' | 'WEEK' | 'MONTH';

export interface NamedLine {
  name: string;
  data: { x: string; y: number }[];
}
export interface TimeSeriesChart {
  __typename: 'TimeSeriesChart';
  title: string;
  lines: NamedLine[];
  dateRange: { start: string; end: string };
  interval: DateInterval;
}
export interface NamedBar {
  name: string;
  segments: { label: string; value: number }[];
}
export interface BarChart {
  __typename: 'BarChart';
  title: string;
  bars: NamedBar[];
}
export interface Cell {
  value: string;
  entity?: { urn: string } | null;
  linkParams?: {
    searchParams: { query: string; types: null; filters: null } | null;
    entityProfileParams: { urn: string; type: EntityType } | null;
  } | null;
}
export interface Row {
  values: string[];
  cells: Cell[];
}
export interface TableChart {
  __typename: 'TableChart';
  title: string;
  columns: string[];
  rows: Row[];
}
export type AnalyticsChart = TimeSeriesChart | BarChart | TableChart;

/** What the charts need of the stored entities: the latest value of some aspects of some urns. */
export type AspectReader = (
  urns: readonly string[],
  aspects: readonly string[],
) => Promise<Map<string, Map<string, Record<string, unknown>>>>;

const DAY = 86_400_000;
/** The value DataHub's bar charts give events lacking a dimension (AnalyticsService.NA). */
const NA = 'N/A';
/** Users DataHub leaves out of "Top Users": its root user and its system actor. */
const HIDDEN_USERS = ['urn:li:corpuser:admin', 'urn:li:corpuser:datahub'];

const startOfDay = (t: number) => Math.floor(t / DAY) * DAY;
const monthStart = (t: number, plusMonths = 0) => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + plusMonths, 1);
};
/** Monday 00:00 of the week holding `t` (weeks as Elasticsearch's calendar interval counts them). */
const weekStart = (t: number) => startOfDay(t) - ((new Date(t).getUTCDay() + 6) % 7) * DAY;
/** The same moment `months` months earlier (day of month clamped, as Joda's minusMonths does). */
function minusMonths(t: number, months: number): number {
  const d = new Date(t);
  const first = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months, 1);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - months + 1, 0)).getUTCDate();
  return first + (Math.min(d.getUTCDate(), lastDay) - 1) * DAY + (t - startOfDay(t));
}

/** DataHub's DateUtil: today's last millisecond back to a week (or month) before, plus one millisecond. */
function trailingWeek(now: number): TimeWindow {
  const end = startOfDay(now) + DAY - 1;
  return { start: end - 7 * DAY + 1, end };
}
function trailingMonth(now: number): TimeWindow {
  const end = startOfDay(now) + DAY - 1;
  return { start: minusMonths(end, 1) + 1, end };
}

/** The start of the bucket after the one starting at `t`. */
const nextBucket = (t: number, interval: DateInterval) =>
  interval === 'DAY' ? t + DAY : interval === 'WEEK' ? t + 7 * DAY : monthStart(t, 1);
const bucketOf = (t: number, interval: DateInterval) =>
  interval === 'DAY' ? startOfDay(t) : interval === 'WEEK' ? weekStart(t) : monthStart(t);

/**
 * A date histogram over `window`: one point per calendar bucket from the first bucket holding an event to the last
 * (Elasticsearch's buckets without extended bounds: none before the first event or after the last, empty ones
 * between), each the events or, `unique`, the distinct browsers. x is the bucket's start as ISO text.
 */
async function histogram(store: UsageEventStore, filter: EventFilter, interval: DateInterval, unique: boolean): Promise<NamedLine[]> {
  const points: { x: string; y: number; events: number }[] = [];
  for (let start = bucketOf(filter.window.start, interval); start <= filter.window.end; start = nextBucket(start, interval)) {
    const window = { start: Math.max(start, filter.window.start), end: Math.min(nextBucket(start, interval) - 1, filter.window.end) };
    const count = await store.count({ ...filter, window });
    points.push({ x: new Date(start).toISOString(), y: unique ? count.browsers : count.events, events: count.events });
  }
  const first = points.findIndex((p) => p.events > 0);
  if (first < 0) return [{ name: 'total', data: [] }];
  const last = points.findLastIndex((p) => p.events > 0);
  return [{ name: 'total', data: points.slice(first, last + 1).map(({ x, y }) => ({ x, y })) }];
}

function timeSeries(title: string, window: TimeWindow, interval: DateInterval, lines: NamedLine[]): TimeSeriesChart {
  return { __typename: 'TimeSeriesChart', title, lines, dateRange: { start: String(window.start), end: String(window.end) }, interval };
}

/** DataHub's buildCellWithEntityLandingPage: the urn, the entity, and a link to its page. */
function entityCell(urn: string): Cell {
  const type = findEntityOfUrn(urn)?.graphqlType as EntityType | undefined;
  return type ? { value: urn, entity: { urn }, linkParams: { searchParams: null, entityProfileParams: { urn, type } } } : { value: urn };
}
const searchCell = (query: string): Cell => ({
  value: query,
  linkParams: { searchParams: { query, types: null, filters: null }, entityProfileParams: null },
});

/** AnalyticsService.getTopNTableChart: rows of [key, count], most first. */
async function topRows(store: UsageEventStore, filter: EventFilter, column: GroupColumn, limit: number, cell: (key: string) => Cell) {
  const groups = await store.groups(filter, column, { limit, missing: false });
  return groups.map(({ key, count }): Row => ({ values: [key!, String(count)], cells: [cell(key!), { value: String(count) }] }));
}

/** AnalyticsService.getBarChart over two dimensions, missing values as "N/A": 10 bars of at most 10 segments, most first. */
async function bars(store: UsageEventStore, filter: EventFilter, first: GroupColumn, second: GroupColumn): Promise<NamedBar[]> {
  const groups = await store.groups(filter, first, { limit: 100_000, missing: true, second });
  const byBar = new Map<string, { total: number; segments: Map<string, number> }>();
  for (const group of groups) {
    const name = group.key ?? NA;
    const bar = byBar.get(name) ?? { total: 0, segments: new Map<string, number>() };
    bar.total += group.count;
    const label = group.second ?? NA;
    bar.segments.set(label, (bar.segments.get(label) ?? 0) + group.count);
    byBar.set(name, bar);
  }
  const mostFirst = <T extends [string, number]>(a: T, b: T) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
  return [...byBar.entries()]
    .map(([name, bar]) => [name, bar.total, bar.segments] as const)
    .sort((a, b) => mostFirst([a[0], a[1]], [b[0], b[1]]))
    .slice(0, 10)
    .map(([name, , segments]) => ({
      name,
      segments: [...segments.entries()]
        .sort(mostFirst)
        .slice(0, 10)
        .map(([label, value]) => ({ label, value })),
    }));
}

/** How a chart names an entity from the latest values of some of its aspects (undefined: it keeps its urn). */
export type NameOf = (urn: string, values: Map<string, Record<string, unknown>>) => string | undefined;

/** The names `name` finds for `urns` from their `aspects`, read as the caller; an urn with none found is left out. */
export async function displayNames(urns: readonly string[], aspects: readonly string[], name: NameOf, read: AspectReader) {
  const names = new Map<string, string>();
  if (urns.length === 0) return names;
  const stored = await read([...new Set(urns)], aspects);
  for (const urn of urns) {
    const found = name(urn, stored.get(urn) ?? new Map());
    if (found !== undefined) names.set(urn, found);
  }
  return names;
}

/** Each cell holding an entity shows its name instead of its urn, where `name` finds one (hydrateDisplayNameForTable). */
async function withDisplayNames(rows: Row[], read: AspectReader, aspects: readonly string[], name: NameOf) {
  const cells = rows.flatMap((row) => row.cells.filter((cell) => cell.entity));
  const names = await displayNames(
    cells.map((cell) => cell.value),
    aspects,
    name,
    read,
  );
  for (const cell of cells) cell.value = names.get(cell.value) ?? cell.value;
  return rows;
}

/** AnalyticsUtil.getDatasetName: datasetProperties' name, else the urn's second key part (the dataset's name). */
const datasetName: NameOf = (urn, values) => {
  const properties = values.get('datasetProperties');
  if (!properties) return undefined;
  if (typeof properties.name === 'string') return properties.name;
  return /^urn:li:dataset:\([^,]*,(.*),[^,]*\)$/.exec(urn)?.[1];
};
const dashboardName: NameOf = (_urn, values) => values.get('dashboardInfo')?.title as string | undefined;

/**
 * AnalyticsUtil.convertToUserInfoRows: the first cell shows the user's name (corpUserInfo's displayName, else first and
 * last name, else the urn's id), then a Title and an Email cell ("None" when unknown). `values` stay [urn, count].
 */
async function asUserRows(rows: Row[], read: AspectReader): Promise<Row[]> {
  const stored = await read(
    rows.map((row) => row.cells[0]!.value),
    ['corpUserInfo', 'corpUserEditableInfo'],
  );
  return rows.map((row) => {
    const cell = row.cells[0]!;
    const urn = cell.value;
    const values = stored.get(urn);
    const info = values?.get('corpUserInfo');
    const editable = values?.get('corpUserEditableInfo');
    const id = urn.slice('urn:li:corpuser:'.length);
    const fullName =
      typeof info?.firstName === 'string' && typeof info.lastName === 'string' ? `${info.firstName} ${info.lastName}` : undefined;
    const name = info ? ((info.displayName as string | undefined) ?? fullName ?? id) : id;
    const title = (info?.title ?? editable?.title) as string | undefined;
    const email = (info?.email ?? editable?.email) as string | undefined;
    return { values: row.values, cells: [{ ...cell, value: values ? name : urn }, { value: title ?? 'None' }, { value: email ?? 'None' }] };
  });
}

/** GetChartsResolver's "Usage Analytics" charts (its New Users chart aside: see the README). */
export async function usageCharts(store: UsageEventStore, read: AspectReader, now: number): Promise<AnalyticsChart[]> {
  const nextWeek = weekStart(now) + 7 * DAY;
  const thisMonth = monthStart(now);
  const week = trailingWeek(now);
  const weekly = { start: nextWeek - 70 * DAY, end: nextWeek - 1 };
  const monthly = { start: monthStart(now, -11), end: thisMonth - 1 };
  const searches = { window: week, only: { type: ['SearchEvent'] } };
  const views = (entityType: string) => ({ window: week, only: { type: ['EntityViewEvent'], entity_type: [entityType] } });
  const topUsers = await topRows(store, { window: trailingMonth(now), not: { actor_urn: HIDDEN_USERS } }, 'actor_urn', 30, entityCell);
  return [
    timeSeries('Weekly Active Users', weekly, 'WEEK', await histogram(store, { window: weekly }, 'WEEK', true)),
    timeSeries('Monthly Active Users', monthly, 'MONTH', await histogram(store, { window: monthly }, 'MONTH', true)),
    {
      __typename: 'TableChart',
      title: 'Top Users (Last 30 Days)',
      columns: ['Name', 'Title', 'Email'],
      rows: await asUserRows(topUsers, read),
    },
    timeSeries('Number of Searches', week, 'DAY', await histogram(store, searches, 'DAY', false)),
    {
      __typename: 'TableChart',
      title: 'Top Searches (Past Week)',
      columns: ['Query', 'Count'],
      rows: await topRows(store, searches, 'query', 10, searchCell),
    },
    {
      __typename: 'TableChart',
      title: 'Top Viewed Datasets (Past Week)',
      columns: ['Name', 'View Count'],
      rows: await withDisplayNames(
        await topRows(store, views('DATASET'), 'entity_urn', 10, entityCell),
        read,
        ['datasetKey', 'datasetProperties'],
        datasetName,
      ),
    },
    {
      __typename: 'TableChart',
      title: 'Top Viewed Dashboards (Past Week)',
      columns: ['Name', 'View Count'],
      rows: await withDisplayNames(
        await topRows(store, views('DASHBOARD'), 'entity_urn', 10, entityCell),
        read,
        ['dashboardInfo'],
        dashboardName,
      ),
    },
    {
      __typename: 'BarChart',
      title: 'Tab Views By Entity Type (Past Week)',
      bars: await bars(store, { window: week, only: { type: ['EntitySectionViewEvent'] } }, 'entity_type', 'section'),
    },
    {
      __typename: 'BarChart',
      title: 'Actions By Entity Type (Past Week)',
      bars: await bars(store, { window: week, only: { type: ['EntityActionEvent'] } }, 'entity_type', 'action_type'),
    },
  ];
}

export interface Highlight {
  value: number;
  title: string;
  body: string;
}

/** Java's `%.2f` of a signed number (half-up away from zero, as Java rounds). */

/**
 * GetHighlightsResolver's active-user cards: distinct browsers over the last week (month) up to now, and the change
 * from the period before it ("" when that period had none).
 */
export async function activeUserHighlights(store: UsageEventStore, now: number): Promise<Highlight[]> {
  const card = async (title: string, period: string, back: (t: number) => number): Promise<Highlight> => {
    const start = back(now);
    const current = (await store.count({ window: { start, end: now } })).browsers;
    const before = (await store.count({ window: { start: back(start), end: start } })).browsers;
    let body = '';
    if (before > 0) {
      const change = ((current - before) / before) * 100;
      body = `${formatFixed2(change)}% ${change > 0 ? 'increase' : 'decrease'} from last ${period}`;
    }
    return { title, value: current, body };
  };
  return [
    await card('Weekly Active Users', 'week', (t) => t - 7 * DAY),
    await card('Monthly Active Users', 'month', (t) => minusMonths(t, 1)),
  ];
}
