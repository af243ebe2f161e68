import type { SqlDatabase } from '@mds/db';
import type { ApiModule } from '@mds/schema';
import { createAspectStore, type AspectStore } from './aspect-store';
import { createIngestion, type Ingestion, type TimeseriesIngestPort } from './ingestion';
import { restliEndpoints } from './restli';

export interface Entities {
  /** Name 'entities': Rest.li ingestion (`/aspects`, `/entities` actions) and reads. Closing it closes `db`. */
  module: ApiModule;
  store: AspectStore;
  ingestion: Ingestion;
}

/** The aspect store on `db` (migrated here), its ingestion, and their Rest.li endpoints. */
export async function createEntities(options: { db: SqlDatabase; timeseries?: TimeseriesIngestPort; now?: () => number }): Promise<Entities> {
  const store = createAspectStore(options.db);
  await store.migrate();
  const ingestion = createIngestion({ store, timeseries: options.timeseries, now: options.now });
  const { actions, reads } = restliEndpoints(store, ingestion);
  return { module: { name: 'entities', actions, reads, close: () => options.db.close() }, store, ingestion };
}
