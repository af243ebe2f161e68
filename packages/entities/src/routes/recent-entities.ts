import { badRequest, type JsonRoute } from '@mds/schema';
import type { EntityService } from '../service';

/** mds's own read (DataHub has none): search sorts by name or urn only, so "latest written" needs the aspect store. */
export const RECENT_ENTITIES_PATH = '/mds/v1/recent-entities';
const DEFAULT_COUNT = 10;
const MAX_COUNT = 100;

/**
 * `GET /mds/v1/recent-entities?count=N`: the N entities whose latest aspect was written (ingested or edited) most
 * recently, newest first, as `{entities: [{urn, lastWritten}]}` (milliseconds). It groups every latest aspect, a
 * full scan of version-0 rows: a read for an operator's page, not for a hot path. A REST read: VIEW_ENTITY_PAGE.
 */
export function recentEntitiesRoute(service: EntityService): JsonRoute {
  return {
    method: 'GET',
    path: RECENT_ENTITIES_PATH,
    async handler(context, request) {
      const asked = request?.query.get('count') ?? String(DEFAULT_COUNT);
      const count = Number(asked);
      if (!/^\d+$/.test(asked) || count < 1 || count > MAX_COUNT)
        throw badRequest(`Parameter 'count' must be an integer from 1 to ${MAX_COUNT}, got: ${asked}`);
      const reader = service.reader(context.actor, {
        api: 'rest',
        denied: () => 'User is unauthorized to list recently written entities.',
      });
      return { entities: await reader.recent(count) };
    },
  };
}
