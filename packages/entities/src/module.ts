import type { SqlDatabase } from '@mds/db';
import { createSqlSearchIndex, type SearchIndex } from '@mds/search';
import type { ApiModule } from '@mds/schema';
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
import { seedEmptyStore } from './service/seed';
import type { AspectReader } from './store/port';
import { createSqlAspectStore } from './store/sql-store';

export interface Entities {
  /** Name 'entities': Rest.li (`/aspects`, `/entities` actions and reads), OpenAPI and mds's JSON routes. Closing it closes `db`. */
  module: ApiModule;
  /** Every read, write and delete of entities, for the faces and the other packages. */
  service: EntityService;
  search: SearchIndex;
  /** The store's reads, unchecked: for the host's tests and counts, never for a face. */
  store: AspectReader;
}

/**
 * The composition of this package: the aspect store and its search index on `db` (migrated here), the entity
 * service over them (seeding an empty store), and the service's REST faces. The GraphQL face is
 * `createEntityGraphql`, composed after the packages whose entity types it shows.
 */
export async function createEntities(options: {
  db: SqlDatabase;
  timeseries?: TimeseriesIngestPort;
  /** Reads of time-series points for GraphQL (none: datasetProfiles and operations answer empty lists). */
  points?: TimeseriesReader;
  /** DataHub's authorization switches (DataHub's defaults when absent). */
  authorization?: AuthorizationSwitches;
  now?: () => number;
}): Promise<Entities> {
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
