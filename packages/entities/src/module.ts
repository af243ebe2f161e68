import type { SqlDatabase } from '@mds/db';
import { createSqlSearchIndex, type SearchIndex } from '@mds/search';
import type { ApiModule } from '@mds/schema';
import { createAspectStore, type AspectStore } from './aspect-store';
import { createIngestion, type Ingestion, type TimeseriesIngestPort } from './ingestion';
import { recentEntitiesRoute } from './recent-entities';
import { restliEndpoints } from './restli';
import { searchActions } from './search-actions';
import { seedEmptyStore } from './seed';

export interface Entities {
  /** Name 'entities': Rest.li ingestion (`/aspects`, `/entities` actions), search actions and reads. Closing it closes `db`. */
  module: ApiModule;
  store: AspectStore;
  search: SearchIndex;
  ingestion: Ingestion;
}

/** The aspect store and its search index on `db` (migrated here), its ingestion, and their Rest.li endpoints. */
export async function createEntities(options: {
  db: SqlDatabase;
  timeseries?: TimeseriesIngestPort;
  now?: () => number;
}): Promise<Entities> {
  const search = createSqlSearchIndex(options.db);
  await search.migrate();
  const store = createAspectStore(options.db, { search });
  await store.migrate();
  await seedEmptyStore(store, options.now ?? Date.now);
  const ingestion = createIngestion({ store, timeseries: options.timeseries, now: options.now });
  const { actions, reads } = restliEndpoints(store, ingestion, options.timeseries);
  return {
    module: {
      name: 'entities',
      actions: [...actions, ...searchActions(search)],
      reads,
      routes: [recentEntitiesRoute(options.db)],
      close: () => options.db.close(),
    },
    store,
    search,
    ingestion,
  };
}
