import { Privilege } from '@mds/auth';
import { copiedTable, type CopiedTable, type SqlDatabase } from '@mds/db';
import type { EntityService } from '@mds/entities';
import { isApiError, sdlFiles, type Actor, type Domain, type JsonRoute, type Resolvers } from '@mds/schema';
import type { SearchIndex } from '@mds/search';
import { fileURLToPath } from 'node:url';
import { activeUserHighlights, usageCharts, type AspectReader } from './charts';
import { usageEvents } from './db/schema';
import { usageEventRow } from './events';
import { DEFAULT_FLOOD_BOUND, floodGuard, type FloodBound } from './flood';
import { filteredMetadataCharts, landscapeCharts } from './metadata';
import { usageEventStore, type UsageEventStore } from './store';

export { MAX_EVENT_BYTES } from './events';
export { DEFAULT_FLOOD_BOUND, type FloodBound } from './flood';

/** The usage events' table, for copying an installation (`mds migrate-to-postgres`). */
export const ANALYTICS_TABLES: readonly CopiedTable[] = [copiedTable(usageEvents)];

const MIGRATIONS = {
  sqlite: fileURLToPath(new URL('../migrations/sqlite', import.meta.url)),
  postgres: fileURLToPath(new URL('../migrations/postgres', import.meta.url)),
};
const TYPE_DEFS = sdlFiles(new URL('./graphql/', import.meta.url), 'analytics.graphql');

/** Where DataHub's web UI posts its usage events (its datahub plugin), answered as DataHub's metadata service does. */
export const TRACKING_PATH = '/openapi/v1/tracking/track';

export interface AnalyticsDeps {
  /** Where the events are kept (a database of their own on SQLite, the server's on PostgreSQL); the module closes it. */
  db: SqlDatabase;
  /** Who may see the charts (the one policy), and the names charts show. */
  entities: EntityService;
  /** The search index the charts of what is catalogued count with. */
  search: SearchIndex;
  /** The per-actor bound on posted events. */
  flood?: FloodBound;
  now?: () => number;
}

export interface AnalyticsService {
  store: UsageEventStore;
  /**
   * Stores a usage event posted for `actorUrn` (validated and bounded as the tracking endpoint's), answering what to
   * send: 200, or 429 with `retry-after`; a 400 is thrown. DataHub's `/auth/track` hands its events here.
   */
  track(body: unknown, actorUrn: string): Promise<{ status: number; headers?: Record<string, string>; body?: unknown }>;
}

export type Analytics = Domain<AnalyticsService>;

/** The module named 'analytics': the tracking endpoint, and the Analytics page's queries. */
export async function createAnalytics(deps: AnalyticsDeps): Promise<Analytics> {
  const { db, entities } = deps;
  const now = deps.now ?? Date.now;
  await db.migrate({ owner: 'analytics', folder: MIGRATIONS[db.dialect] });
  const store = usageEventStore(db);
  const bound = deps.flood ?? DEFAULT_FLOOD_BOUND;
  const flood = floodGuard(bound, now);

  /** Validates, bounds (per actor) and stores one usage event posted for `actorUrn`: the answer to send. */
  const record: AnalyticsService['track'] = async (body, actorUrn) => {
    const row = usageEventRow(body, actorUrn, now());
    if (isApiError(row)) throw row;
    const wait = flood.take(actorUrn);
    if (wait > 0) {
      return {
        status: 429,
        headers: { 'retry-after': String(wait) },
        body: {
          message: `Too many usage events from ${actorUrn}: at most ${bound.perSecond} a second after a burst of ${bound.burst}`,
          status: 429,
        },
      };
    }
    await store.append(row);
    return { status: 200 };
  };

  const track: JsonRoute = {
    method: 'POST',
    path: TRACKING_PATH,
    whole: true,
    session: true,
    handler: ({ actor }, request) => record(request?.body, actor.urn),
  };

  /** The caller's reads of the names a chart shows (what the policy hides from it stays a urn). */
  const readerOf =
    (actor: Actor): AspectReader =>
    async (urns, aspects) => {
      const latest = await entities.reader(actor, { api: 'graphql' }).latest(urns, aspects);
      return new Map([...latest].map(([urn, byAspect]) => [urn, new Map([...byAspect].map(([name, stored]) => [name, stored.value]))]));
    };
  const mayView = (actor: Actor) => entities.authorize(actor, [[Privilege.VIEW_ANALYTICS]]);

  const resolvers: Resolvers = {
    Query: {
      isAnalyticsEnabled: () => true,
      getAnalyticsCharts: async (_parent, _args, { actor }) => {
        await mayView(actor);
        const read = readerOf(actor);
        return [
          { groupId: 'DataHubUsageAnalytics', title: 'Usage Analytics', charts: await usageCharts(store, read, now()) },
          { groupId: 'GlobalMetadataAnalytics', title: 'Data Landscape Summary', charts: await landscapeCharts(deps.search, read) },
        ];
      },
      getMetadataAnalyticsCharts: async (_parent, { input }, { actor }) => {
        await mayView(actor);
        return [
          { groupId: 'FilteredMetadataAnalytics', title: '', charts: await filteredMetadataCharts(deps.search, readerOf(actor), input) },
        ];
      },
      getHighlights: async (_parent, _args, { actor }) => {
        await mayView(actor);
        return activeUserHighlights(store, now());
      },
    },
  };

  return {
    module: {
      name: 'analytics',
      typeDefs: TYPE_DEFS,
      resolvers,
      routes: [track],
      close: () => db.close(),
    },
    service: { store, track: record },
  };
}
