import { Privilege, requirePrivilege } from '@mds/auth';
import type { SqlExecutor } from '@mds/db';
import { badRequest, type JsonRoute } from '@mds/schema';

/** mds's own read (DataHub has none): search sorts by name or urn only, so "latest written" needs the aspect store. */
export const RECENT_ENTITIES_PATH = '/mds/v1/recent-entities';
const DEFAULT_COUNT = 10;
const MAX_COUNT = 100;

/**
 * `GET /mds/v1/recent-entities?count=N`: the N entities whose latest aspect was written (ingested or edited) most
 * recently, newest first, as `{entities: [{urn, lastWritten}]}` (milliseconds). It groups every latest aspect, a
 * full scan of version-0 rows: a read for an operator's page, not for a hot path. Needs VIEW_ENTITY_PAGE, as reads do.
 */
export function recentEntitiesRoute(db: SqlExecutor): JsonRoute {
  return {
    method: 'GET',
    path: RECENT_ENTITIES_PATH,
    async handler(context, request) {
      requirePrivilege(context.actor, [Privilege.VIEW_ENTITY_PAGE], `User is unauthorized to list recently written entities.`);
      const asked = request?.query.get('count') ?? String(DEFAULT_COUNT);
      const count = Number(asked);
      if (!/^\d+$/.test(asked) || count < 1 || count > MAX_COUNT)
        throw badRequest(`Parameter 'count' must be an integer from 1 to ${MAX_COUNT}, got: ${asked}`);
      const rows = await db.all<{ urn: string; written: number | string }>(
        'SELECT urn, MAX(createdon) AS written FROM metadata_aspect_v2 WHERE version = 0 GROUP BY urn ORDER BY written DESC, urn LIMIT ?',
        [count],
      );
      // PostgreSQL answers a bigint as text.
      return { entities: rows.map((r) => ({ urn: r.urn, lastWritten: Number(r.written) })) };
    },
  };
}
