import type { Entities, TimeseriesIngestPort } from '@mds/entities';
import type { ApiModule } from '@mds/schema';
import { apiDocsRoutes } from './api-docs';
import { deleteRoutes } from './deletes';
import { readRoutes } from './reads';
import { toJsonRoute } from './route';
import { v1Routes } from './v1';
import { writeRoutes } from './writes';

/**
 * DataHub's OpenAPI v3 entity API (entities-api §8) over the aspect store of `entities`: reads through the store and
 * its search index, writes through its ingestion (the checks and privileges of Rest.li's), time-series aspects
 * through `timeseries`.
 */
export function createOpenApi(options: {
  entities: Pick<Entities, 'store' | 'search' | 'ingestion'>;
  timeseries?: TimeseriesIngestPort;
}): ApiModule {
  const { store, search, ingestion } = options.entities;
  const stores = { store, timeseries: options.timeseries };
  const routes = [
    ...readRoutes(stores, search),
    ...writeRoutes(stores, ingestion),
    ...deleteRoutes(stores),
    ...v1Routes(stores, ingestion),
    ...apiDocsRoutes(),
  ].map(toJsonRoute);
  return { name: 'openapi', routes };
}
