import type { SqlDatabase } from '@mds/db';
import { createSqlSearchIndex, type SearchIndex } from '@mds/search';
import type { Domain } from '@mds/schema';
import { openApiRoutes } from './openapi/module';
import { restliEndpoints } from './restli/endpoints';
import { searchActions } from './restli/search-actions';
import { recentEntitiesRoute } from './routes/recent-entities';
import {
  createEntityService,
  type AuthorizationSwitches,
  type EntityService,
  type TimeseriesIngestPort,
  type TimeseriesReader,
} from './service';
import { ingestDefaultPolicies, seedEmptyStore } from './service/seed';
import type { AspectReader } from './store/port';
import { createSqlAspectStore } from './store/sql-store';

/**
 * The module is named 'entities': Rest.li (`/aspects`, `/entities` actions and reads), OpenAPI and mds's JSON routes;
 * closing it closes `db`. The service is every read, write and delete of entities, for the faces and the other
 * packages. `search` is lent to the GraphQL face and the CLI; `store` is the store's reads, unchecked: for the host's
 * tests and counts, never for a face.
 */
export type Entities = Domain<EntityService, { search: SearchIndex; store: AspectReader }>;

export interface EntitiesDeps {
  db: SqlDatabase;
  timeseries?: TimeseriesIngestPort;
  /** Reads of time-series points for GraphQL (none: datasetProfiles and operations answer empty lists). */
  points?: TimeseriesReader;
  /** DataHub's authorization switches (DataHub's defaults when absent). */
  authorization?: AuthorizationSwitches;
  now?: () => number;
}

/**
 * The composition of this package: the aspect store and its search index on `db` (migrated here), the entity
 * service over them (seeding an empty store, and DataHub's default policies for all users at every start), and the
 * service's REST faces. The GraphQL face is `createEntityGraphql`, composed after the packages whose entity types it
 * shows.
 */
export async function createEntities(options: EntitiesDeps): Promise<Entities> {
  const search = createSqlSearchIndex(options.db);
  await search.migrate();
  const store = createSqlAspectStore(options.db, { search });
  await store.migrate();
  const service = createEntityService({
    store,
    timeseries: options.timeseries,
    points: options.points,
    switches: options.authorization,
    now: options.now,
  });
  // Points a crash left between a commit and their relay to the time-series store (a cluster that is down at start
  // keeps them queued for the next start rather than holding the server's start).
  await service.relayOutbox().catch(() => undefined);
  await seedEmptyStore(service, () => store.isEmpty());
  await ingestDefaultPolicies(service);
  const { actions, reads } = restliEndpoints(service);
  return {
    module: {
      name: 'entities',
      actions: [...actions, ...searchActions(search)],
      reads,
      routes: [recentEntitiesRoute(service), ...openApiRoutes(service, search)],
      close: () => options.db.close(),
    },
    service,
    search,
    store,
  };
}
