import type { SearchIndex } from '@mds/search';
import type { JsonRoute } from '@mds/schema';
import type { EntityService } from '../service';
import { apiDocsRoutes } from './api-docs';
import { deleteRoutes } from './deletes';
import { readRoutes } from './reads';
import { toJsonRoute } from './route';
import { v1Routes } from './v1';
import { writeRoutes } from './writes';

/**
 * DataHub's OpenAPI v3 entity API (entities-api §8), and the v1 calls of its usage guide: a face of the entity
 * service (reads, ingestion, deletes; the same checks, texts and privileges as Rest.li's) and of its search index
 * (lists and scrolls).
 */
export function openApiRoutes(service: EntityService, search: SearchIndex): JsonRoute[] {
  return [...readRoutes(service, search), ...writeRoutes(service), ...deleteRoutes(service), ...v1Routes(service), ...apiDocsRoutes()].map(
    toJsonRoute,
  );
}
