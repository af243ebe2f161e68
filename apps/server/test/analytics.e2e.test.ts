import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertAspect } from './support/graphql-docs';
import { startMds, type Mds } from './support/mds';
import { readUiDocuments } from './webui/ui-documents';

// The web UI's usage tracking and its Analytics page (issues 31, 32): DataHub's datahub analytics plugin posts every
// event to POST /openapi/v1/tracking/track (answered as DataHub's TrackingController answers: 200 with no body, 400
// without a type); the page asks isAnalyticsEnabled, getHighlights and getAnalyticsCharts (IsAnalyticsEnabledResolver,
// GetHighlightsResolver, GetChartsResolver over AnalyticsService). Events are posted by a page signed in with the
// session cookie, as the UI posts them, then read back as the page reads them.
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales.orders,PROD)';
const OTHER_DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,sales.refunds,PROD)';
const DASHBOARD = 'urn:li:dashboard:(looker,revenue)';
const ROOT = 'urn:li:corpuser:datahub';
const ALICE = 'urn:li:corpuser:alice';
const SALES = 'urn:li:domain:sales';
const TERM = 'urn:li:glossaryTerm:revenue';

let mds: Mds;
let cookie: string;
/** When the first events were posted: the day and week their buckets start (UTC). */
let postedAt: number;

/** The UI's own operation (fragments resolved). */
const uiOperation = (name: string) => print(readUiDocuments().operations.find((op) => op.name === name)!.document);

/** What the UI's analytics wrapper adds to every event (analytics.ts), for a browser `browserId`. */
const envelope = (browserId: string) => ({
  actorUrn: ROOT,
  timestamp: Date.now(),
  date: new Date().toString(),
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  browserId,
  origin: 'http://localhost:9002',
  isThemeV2Enabled: true,
  serverVersion: 'v1.2.0',
});

/** The page's fetch (plugin/datahub.ts): a same-origin JSON POST carrying the session cookies. */
const track = (event: unknown, headers: Record<string, string> = {}) =>
  fetch(`${mds.url}/openapi/v1/tracking/track`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin: mds.url, 'sec-fetch-site': 'same-origin', ...headers },
    body: typeof event === 'string' ? event : JSON.stringify(event),
  });

/** Writes one aspect over Rest.li, as DataHub's emitters do. */
const write = (entityType: string, entityUrn: string, aspectName: string, value: unknown) =>
  upsertAspect(mds, entityType, entityUrn, aspectName, value);

beforeAll(async () => {
  mds = await startMds();
  // Its refusals are of callers lacking a privilege: DataHub's default policies for all users are deactivated.
  await mds.withoutAllUsersPolicies();
  await mds.domains.auth.service.credentials.setPassword(ROOT, 'root-password');
  const signIn = await fetch(`${mds.url}/logIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'datahub', password: 'root-password' }),
  });
  expect(signIn.status).toBe(200);
  cookie = signIn.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  await write('dataset', DATASET, 'datasetProperties', { name: 'Orders', customProperties: {} });
  await write('dashboard', DASHBOARD, 'dashboardInfo', {
    title: 'Revenue',
    description: '',
    customProperties: {},
    lastModified: { created: { time: 0, actor: ROOT }, lastModified: { time: 0, actor: ROOT } },
  });
  await write('dataset', OTHER_DATASET, 'status', { removed: false });
  await write('domain', SALES, 'domainProperties', { name: 'Sales' });
  await write('glossaryTerm', TERM, 'glossaryTermInfo', { name: 'Revenue', definition: 'Money in', termSource: 'INTERNAL' });
  await write('dataset', DATASET, 'domains', { domains: [SALES] });
  await write('dashboard', DASHBOARD, 'domains', { domains: [SALES] });
  await write('dataset', DATASET, 'glossaryTerms', { terms: [{ urn: TERM }], auditStamp: { time: 0, actor: ROOT } });
  await write('corpuser', ALICE, 'corpUserInfo', {
    active: true,
    firstName: 'Alice',
    lastName: 'Liddell',
    title: 'Analyst',
    email: 'alice@example.com',
  });
});
afterAll(() => mds?.close());

describe('POST /openapi/v1/tracking/track', () => {
  it('stores the UI’s events as posted, with the signed-in actor and mds’s time, and answers 200 with no body', async () => {
    const before = Date.now();
    postedAt = before;
    const posted = [
      // analytics.page: the analytics library's page properties, then the wrapper's fields.
      {
        title: 'DataHub',
        url: `${mds.url}/search`,
        path: '/search',
        hash: '',
        search: '?query=orders',
        width: 1280,
        height: 800,
        referrer: '',
        type: 'PageViewEvent',
        ...envelope('browser-a'),
      },
      { type: 'SearchEvent', query: 'orders', entityTypeFilter: 'DATASET', pageNumber: 1, originPath: '/search', ...envelope('browser-a') },
      { type: 'SearchEvent', query: 'orders', pageNumber: 1, originPath: '/', ...envelope('browser-b') },
      { type: 'SearchEvent', query: 'refunds', pageNumber: 1, originPath: '/', ...envelope('browser-b') },
      { type: 'EntityViewEvent', entityType: 'DATASET', entityUrn: DATASET, ...envelope('browser-a') },
      { type: 'EntityViewEvent', entityType: 'DATASET', entityUrn: DATASET, ...envelope('browser-b') },
      { type: 'EntityViewEvent', entityType: 'DATASET', entityUrn: OTHER_DATASET, ...envelope('browser-b') },
      { type: 'EntityViewEvent', entityType: 'DASHBOARD', entityUrn: DASHBOARD, ...envelope('browser-a') },
      { type: 'EntitySectionViewEvent', entityType: 'DATASET', entityUrn: DATASET, section: 'Schema', ...envelope('browser-a') },
      { type: 'EntitySectionViewEvent', entityType: 'DATASET', entityUrn: DATASET, section: 'Schema', ...envelope('browser-b') },
      { type: 'EntitySectionViewEvent', entityType: 'DATASET', entityUrn: DATASET, section: 'Lineage', ...envelope('browser-b') },
      { type: 'EntityActionEvent', actionType: 'UpdateTags', entityType: 'DATASET', entityUrn: DATASET, ...envelope('browser-a') },
      // Posted in another's name: the actor stored is the one signed in.
      {
        type: 'EntityActionEvent',
        actionType: 'UpdateOwnership',
        entityUrn: DATASET,
        ...envelope('browser-b'),
        actorUrn: 'urn:li:corpuser:someone-else',
        timestamp: 1,
      },
    ];
    for (const event of posted) {
      const res = await track(event);
      expect([res.status, await res.text()]).toEqual([200, '']);
    }
    const rows = await mds.domains.analytics.service.store.groups({ window: { start: 0, end: Date.now() } }, 'actor_urn', {
      limit: 10,
      missing: true,
    });
    expect(rows).toEqual([{ key: ROOT, count: posted.length }]);
    const counted = await mds.domains.analytics.service.store.count({ window: { start: before, end: Date.now() } });
    expect(counted).toEqual({ events: posted.length, browsers: 2 });
  });

  it('takes an API client’s bearer token too; posting needs no privilege', async () => {
    const alice = await mds.tokenFor(ALICE, 'urn:li:dataHubRole:Reader');
    const res = await mds.post('/openapi/v1/tracking/track', { type: 'PageViewEvent', path: '/', browserId: 'script' }, alice);
    expect(res.status).toBe(200);
  });

  it('refuses a bad event with a 400 naming the field, and stores nothing for it', async () => {
    const count = async () => (await mds.domains.analytics.service.store.count({ window: { start: 0, end: Date.now() } })).events;
    const stored = await count();
    const cases: [unknown, string][] = [
      [{ path: '/' }, 'has no "type"'],
      [{ type: 7 }, `"type" must be an event type name`],
      [{ type: 'Page View' }, `"type" must be an event type name`],
      [[{ type: 'PageViewEvent' }], 'must be a JSON object'],
      [{ type: 'EntityViewEvent', entityUrn: { urn: DATASET } }, '"entityUrn" must be a string, not object'],
      [{ type: 'SearchEvent', query: ['a'] }, '"query" must be a string, not an array'],
      [{ type: 'PageViewEvent', padding: 'x'.repeat(20_000) }, 'at most 16384 are kept per event'],
    ];
    for (const [event, message] of cases) {
      const res = await track(event);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(message);
    }
    expect((await track('{"type":')).status).toBe(400);
    expect(await count()).toBe(stored);
  });

  it('refuses a call without credentials (401) and a cross-site page carrying the cookie (403)', async () => {
    const anonymous = await fetch(`${mds.url}/openapi/v1/tracking/track`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'PageViewEvent' }),
    });
    expect(anonymous.status).toBe(401);
    const crossSite = await track({ type: 'PageViewEvent' }, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
  });
});

describe('the Analytics page’s queries', () => {
  it('isAnalyticsEnabled and appConfig.analyticsConfig.enabled: true (usage events are stored), which shows the page', async () => {
    const res = await mds.graphql(uiOperation('isAnalyticsEnabled'));
    expect(res.body).toEqual({ data: { isAnalyticsEnabled: true } });
    expect((await mds.graphql('{ appConfig { analyticsConfig { enabled } } }')).body.data).toEqual({
      appConfig: { analyticsConfig: { enabled: true } },
    });
  });

  it('getHighlights: active users (distinct browsers) this week and this month, as GetHighlightsResolver counts them', async () => {
    const res = await mds.graphql(uiOperation('getHighlights'));
    expect(res.body.errors).toBeUndefined();
    // browser-a, browser-b and the API client's "script"; nothing the period before, so no change is stated.
    expect(res.body.data.getHighlights).toEqual([
      { title: 'Weekly Active Users', value: 3, body: '' },
      { title: 'Monthly Active Users', value: 3, body: '' },
    ]);
  });

  it('getAnalyticsCharts: DataHub’s usage charts computed from the stored events', async () => {
    const res = await mds.graphql(uiOperation('getAnalyticsCharts'));
    expect(res.body.errors).toBeUndefined();
    const [group] = res.body.data.getAnalyticsCharts;
    expect([group.groupId, group.title]).toEqual(['DataHubUsageAnalytics', 'Usage Analytics']);
    type Chart = { title: string; [key: string]: unknown };
    const chart = (title: string) => (group.charts as Chart[]).find((c) => c.title === title)!;
    expect((group.charts as Chart[]).map((c) => c.title)).toEqual([
      'Weekly Active Users',
      'Monthly Active Users',
      'Top Users (Last 30 Days)',
      'Number of Searches',
      'Top Searches (Past Week)',
      'Top Viewed Datasets (Past Week)',
      'Top Viewed Dashboards (Past Week)',
      'Tab Views By Entity Type (Past Week)',
      'Actions By Entity Type (Past Week)',
    ]);

    const today = new Date(Math.floor(postedAt / 86_400_000) * 86_400_000);
    const monday = new Date(today.getTime() - ((today.getUTCDay() + 6) % 7) * 86_400_000);
    const wau = chart('Weekly Active Users');
    expect(wau.interval).toBe('WEEK');
    expect(wau.lines).toEqual([{ name: 'total', data: [{ x: monday.toISOString(), y: 3 }] }]);
    // Months before this one only: this month's events are not in it yet.
    expect(chart('Monthly Active Users').lines).toEqual([{ name: 'total', data: [] }]);
    expect(chart('Number of Searches').lines).toEqual([{ name: 'total', data: [{ x: today.toISOString(), y: 3 }] }]);

    // DataHub leaves its root user (datahub) and admin out; Alice's name is her first and last name.
    expect(chart('Top Users (Last 30 Days)')).toEqual({
      title: 'Top Users (Last 30 Days)',
      columns: ['Name', 'Title', 'Email'],
      rows: [
        {
          values: [ALICE, '1'],
          cells: [
            { value: 'Alice Liddell', linkParams: { searchParams: null, entityProfileParams: { urn: ALICE, type: 'CORP_USER' } } },
            { value: 'Analyst', linkParams: null },
            { value: 'alice@example.com', linkParams: null },
          ],
        },
      ],
    });
    expect(chart('Top Searches (Past Week)')).toEqual({
      title: 'Top Searches (Past Week)',
      columns: ['Query', 'Count'],
      rows: [
        {
          values: ['orders', '2'],
          cells: [
            { value: 'orders', linkParams: { searchParams: { types: null, query: 'orders', filters: null }, entityProfileParams: null } },
            { value: '2', linkParams: null },
          ],
        },
        {
          values: ['refunds', '1'],
          cells: [
            { value: 'refunds', linkParams: { searchParams: { types: null, query: 'refunds', filters: null }, entityProfileParams: null } },
            { value: '1', linkParams: null },
          ],
        },
      ],
    });
    // Names from datasetProperties / dashboardInfo; a dataset with no properties keeps its urn.
    const viewed = chart('Top Viewed Datasets (Past Week)') as unknown as { rows: { values: string[]; cells: { value: string }[] }[] };
    expect(viewed.rows.map((row) => [row.values, row.cells.map((cell) => cell.value)])).toEqual([
      [
        [DATASET, '2'],
        ['Orders', '2'],
      ],
      [
        [OTHER_DATASET, '1'],
        [OTHER_DATASET, '1'],
      ],
    ]);
    const dashboards = chart('Top Viewed Dashboards (Past Week)') as unknown as { rows: { cells: { value: string }[] }[] };
    expect(dashboards.rows.map((row) => row.cells.map((cell) => cell.value))).toEqual([['Revenue', '1']]);
    expect(chart('Tab Views By Entity Type (Past Week)').bars).toEqual([
      {
        name: 'DATASET',
        segments: [
          { label: 'Schema', value: 2 },
          { label: 'Lineage', value: 1 },
        ],
      },
    ]);
    // An action event without an entity type is counted under DataHub's "N/A".
    expect(chart('Actions By Entity Type (Past Week)').bars).toEqual([
      { name: 'DATASET', segments: [{ label: 'UpdateTags', value: 1 }] },
      { name: 'N/A', segments: [{ label: 'UpdateOwnership', value: 1 }] },
    ]);
  });

  it('shows the charts only to holders of VIEW_ANALYTICS (DataHub’s privilege for the Analytics page)', async () => {
    // A user without a role: every role holds VIEW_ANALYTICS, as DataHub's default policies give it.
    const reader = await mds.tokenFor('urn:li:corpuser:norole', null);
    for (const name of ['getAnalyticsCharts', 'getHighlights']) {
      const res = await mds.graphql(uiOperation(name), {}, reader);
      expect(res.body.errors?.[0]?.message).toBe('Unauthorized to perform this action. Please contact your DataHub administrator.');
    }
    const admin = await mds.tokenFor('urn:li:corpuser:admin-user', 'urn:li:dataHubRole:Admin');
    expect((await mds.graphql(uiOperation('getHighlights'), {}, admin)).body.errors).toBeUndefined();
    // Whether analytics is on is no secret: every signed-in user may ask.
    expect((await mds.graphql(uiOperation('isAnalyticsEnabled'), {}, reader)).body.data).toEqual({ isAnalyticsEnabled: true });
  });

  it('getAnalyticsCharts: the Data Landscape Summary counts catalogued entities by domain (split by platform), platform and term', async () => {
    const res = await mds.graphql(uiOperation('getAnalyticsCharts'));
    expect(res.body.errors).toBeUndefined();
    const landscape = res.body.data.getAnalyticsCharts[1];
    expect([landscape.groupId, landscape.title]).toEqual(['GlobalMetadataAnalytics', 'Data Landscape Summary']);
    const byTitle = new Map((landscape.charts as { title: string; bars: unknown }[]).map((chart) => [chart.title, chart.bars]));
    // Names are the domain's and the term's; a platform with no dataPlatformInfo shows its id.
    expect(byTitle.get('Entities By Domain')).toEqual([
      {
        name: 'Sales',
        segments: [
          { label: 'hive', value: 1 },
          { label: 'looker', value: 1 },
        ],
      },
    ]);
    expect(byTitle.get('Assets By Platform')).toEqual([
      { name: 'hive', segments: [{ label: 'Count', value: 2 }] },
      { name: 'looker', segments: [{ label: 'Count', value: 1 }] },
    ]);
    expect(byTitle.get('Entities With Term')).toEqual([{ name: 'Revenue', segments: [{ label: 'Count', value: 1 }] }]);
    // One environment only: no environment chart (DataHub shows it from two on).
    expect(byTitle.has('Entities By Environment')).toBe(false);
  });

  it('getMetadataAnalyticsCharts: the filtered charts of GetMetadataAnalyticsResolver, with the variables the page sends', async () => {
    const run = async (input: Record<string, unknown>) => {
      const res = await mds.graphql(uiOperation('getMetadataAnalyticsCharts'), { input });
      expect(res.body.errors).toBeUndefined();
      const [group] = res.body.data.getMetadataAnalyticsCharts;
      expect([group.groupId, group.title]).toEqual(['FilteredMetadataAnalytics', '']);
      return new Map((group.charts as { title: string; bars: unknown }[]).map((chart) => [chart.title, chart.bars]));
    };
    // The page's call once a domain is picked: no domain chart, the rest within the domain.
    const inSales = await run({ entityType: null, domain: SALES, query: '' });
    expect([...inSales.keys()]).toEqual(['Data Assets by Platform', 'Data Assets by Term']);
    expect(inSales.get('Data Assets by Platform')).toEqual([
      { name: 'hive', segments: [{ label: 'Count', value: 1 }] },
      { name: 'looker', segments: [{ label: 'Count', value: 1 }] },
    ]);
    // An entity type and no domain: the domain chart too.
    const datasets = await run({ entityType: 'DATASET' });
    expect(datasets.get('Data Assets by Domain')).toEqual([{ name: 'Sales', segments: [{ label: 'Count', value: 1 }] }]);
    expect(datasets.get('Data Assets by Platform')).toEqual([{ name: 'hive', segments: [{ label: 'Count', value: 2 }] }]);
    const reader = await mds.tokenFor('urn:li:corpuser:norole', null);
    const refused = await mds.graphql(uiOperation('getMetadataAnalyticsCharts'), { input: { domain: SALES } }, reader);
    expect(refused.body.errors?.[0]?.message).toBe('Unauthorized to perform this action. Please contact your DataHub administrator.');
  });
});
