import type { SqlDatabase } from '@mds/db';
import { databasesOfBothDialects } from '@mds/db/testing';
import type { EntityService } from '@mds/entities';
import type { Actor, ApiContext } from '@mds/schema';
import type { SearchIndex } from '@mds/search';
import { describe, expect, it } from 'vitest';
import { activeUserHighlights, usageCharts, type AspectReader, type TimeSeriesChart } from '../src/charts';
import { usageEventRow } from '../src/events';
import { createAnalytics } from '../src/index';
import { usageEventStore } from '../src/store';

// The calendar arithmetic of DataHub's GetChartsResolver / GetHighlightsResolver (DateUtil's windows, Elasticsearch's
// calendar buckets) over events placed at known times, on SQLite and PostgreSQL. The e2e test
// (apps/server/test/analytics.e2e.test.ts) posts the UI's events to a real server and reads the page's queries.
const databases = databasesOfBothDialects();
const at = (iso: string) => Date.parse(iso);
/** Wednesday. */
const NOW = at('2026-03-18T12:00:00Z');
const noNames: AspectReader = async () => new Map();

async function withEvents(db: SqlDatabase, events: [string, string, string][]) {
  await db.migrate({ owner: 'analytics', folder: new URL('../migrations/' + db.dialect, import.meta.url).pathname });
  const store = usageEventStore(db);
  for (const [iso, type, browserId] of events) {
    const row = usageEventRow({ type, browserId, query: 'q' }, 'urn:li:corpuser:u', at(iso));
    if (!('event' in row)) throw row;
    await store.append(row);
  }
  return store;
}

const EVENTS: [string, string, string][] = [
  ['2026-01-10T09:00:00Z', 'PageViewEvent', 'x'],
  ['2026-02-03T09:00:00Z', 'PageViewEvent', 'y'],
  ['2026-02-20T09:00:00Z', 'SearchEvent', 'y'],
  ['2026-03-02T00:00:00Z', 'PageViewEvent', 'z'],
  ['2026-03-05T09:00:00Z', 'SearchEvent', 'w'],
  ['2026-03-06T09:00:00Z', 'PageViewEvent', 'v'],
  ['2026-03-17T09:00:00Z', 'SearchEvent', 'x'],
  ['2026-03-18T08:00:00Z', 'SearchEvent', 'x'],
];

describe.each(['sqlite', 'postgres'] as const)('usage charts on %s', (dialect) => {
  it('buckets active users by ISO week and by month, from the first bucket with events to the last', async () => {
    const store = await withEvents(await databases[dialect].open(), EVENTS);
    const charts = await usageCharts(store, noNames, NOW);
    const line = (title: string) => (charts.find((c) => c.title === title) as TimeSeriesChart).lines[0]!.data;
    // Ten weeks up to next Monday (2026-03-23): the January event is before them; empty weeks between stay.
    expect((charts[0] as TimeSeriesChart).dateRange).toEqual({
      start: String(at('2026-01-12T00:00:00Z')),
      end: String(at('2026-03-23T00:00:00Z') - 1),
    });
    expect(line('Weekly Active Users')).toEqual([
      { x: '2026-02-02T00:00:00.000Z', y: 1 },
      { x: '2026-02-09T00:00:00.000Z', y: 0 },
      { x: '2026-02-16T00:00:00.000Z', y: 1 },
      { x: '2026-02-23T00:00:00.000Z', y: 0 },
      { x: '2026-03-02T00:00:00.000Z', y: 3 },
      { x: '2026-03-09T00:00:00.000Z', y: 0 },
      { x: '2026-03-16T00:00:00.000Z', y: 1 },
    ]);
    // Twelve months up to the end of last month: this month's events wait for it to end.
    expect(line('Monthly Active Users')).toEqual([
      { x: '2026-01-01T00:00:00.000Z', y: 1 },
      { x: '2026-02-01T00:00:00.000Z', y: 1 },
    ]);
    // Searches of the trailing week (2026-03-12 to today's end), one point per day holding some.
    expect(line('Number of Searches')).toEqual([
      { x: '2026-03-17T00:00:00.000Z', y: 1 },
      { x: '2026-03-18T00:00:00.000Z', y: 1 },
    ]);
  });

  it('states active users of the last week and month and the change from the period before, as DataHub words it', async () => {
    const store = await withEvents(await databases[dialect].open(), EVENTS);
    // Week: x now, against w and v the week before. Month: every browser but x's January one, against y alone.
    expect(await activeUserHighlights(store, NOW)).toEqual([
      { title: 'Weekly Active Users', value: 1, body: '-50.00% decrease from last week' },
      { title: 'Monthly Active Users', value: 5, body: '400.00% increase from last month' },
    ]);
    // Nothing the period before: no change stated.
    expect(await activeUserHighlights(store, at('2026-01-12T00:00:00Z'))).toEqual([
      { title: 'Weekly Active Users', value: 1, body: '' },
      { title: 'Monthly Active Users', value: 1, body: '' },
    ]);
  });
});

describe('the tracking route', () => {
  it('bounds a flood per actor: a burst, then the refill rate, answering 429 with Retry-After', async () => {
    let clock = NOW;
    const db = await databases.sqlite.open();
    const analytics = await createAnalytics({
      db,
      entities: {} as EntityService,
      search: {} as SearchIndex,
      flood: { burst: 3, perSecond: 2 },
      now: () => clock,
    });
    const route = analytics.module.routes!.find((r) => r.path === '/openapi/v1/tracking/track')!;
    const as = (urn: string): ApiContext => ({ actor: { urn, privileges: new Set() } satisfies Actor, requestId: 'r' });
    const post = (urn: string) =>
      route.handler(as(urn), { params: {}, query: new URLSearchParams(), body: { type: 'PageViewEvent' } }) as Promise<{
        status: number;
        headers?: Record<string, string>;
        body?: { message: string };
      }>;
    for (let i = 0; i < 3; i++) expect((await post('urn:li:corpuser:a')).status).toBe(200);
    const refused = await post('urn:li:corpuser:a');
    expect([refused.status, refused.headers]).toEqual([429, { 'retry-after': '1' }]);
    expect(refused.body?.message).toBe('Too many usage events from urn:li:corpuser:a: at most 2 a second after a burst of 3');
    // Another actor has a bucket of its own.
    expect((await post('urn:li:corpuser:b')).status).toBe(200);
    // Half a second gives one event back.
    clock += 500;
    expect((await post('urn:li:corpuser:a')).status).toBe(200);
    expect((await post('urn:li:corpuser:a')).status).toBe(429);
    // Only admitted events are stored.
    expect((await analytics.service.store.count({ window: { start: 0, end: clock } })).events).toBe(5);
  });
});
