import { Privilege, requirePrivilege } from '@mds/auth';
import { badRequest, defineAction, type RestliAction } from '@mds/schema';
import type { PointsRequest } from '@mds/entities';
import { z } from 'zod';
import type { TimeseriesStore } from './port.ts';
import { indexName, resolveAspect } from './registry.ts';

/** DataHub's default `limit` of getTimeseriesAspectValues. */
export const DEFAULT_VALUES_LIMIT = 10_000;

/** One point as getTimeseriesAspectValues answers it: the value as JSON text, system metadata parsed. */
export interface EnvelopedTimeseriesAspect {
  aspect: { value: string; contentType: 'application/json' };
  systemMetadata?: unknown;
}

/** The action's value (entities-api §7.5). */
export interface TimeseriesAspectValues {
  entityName: string;
  aspectName: string;
  limit: number;
  startTimeMillis?: number;
  endTimeMillis?: number;
  values: EnvelopedTimeseriesAspect[];
}

const params = z
  .object({
    urn: z.string(),
    entity: z.string(),
    aspect: z.string(),
    startTimeMillis: z.int().optional(),
    endTimeMillis: z.int().optional(),
    limit: z.int().positive('must be greater than 0').default(DEFAULT_VALUES_LIMIT),
    latestValue: z.boolean().optional(),
    // DataHub filters on indexed aspect fields; mds indexes none of them, so a filter is accepted and ignored.
    filter: z.unknown().optional(),
    sort: z
      .object({ field: z.string(), order: z.enum(['ASCENDING', 'DESCENDING']) })
      .strict()
      .optional(),
  })
  .strict();

/** `POST /aspects?action=getTimeseriesAspectValues`: one entity's points of one time-series aspect. */
export function timeseriesValuesActions(store: TimeseriesStore): RestliAction[] {
  return [
    defineAction({
      resource: 'aspects',
      name: 'getTimeseriesAspectValues',
      params,
      async handler(request, { actor }) {
        requirePrivilege(actor, [Privilege.VIEW_ENTITY_PAGE], `User is unauthorized to get timeseries aspect for ${request.urn}`);
        const resolved = resolveAspect(request.entity, request.aspect);
        if (!resolved.ok) throw badRequest(`Unknown aspect ${request.aspect} for entity ${request.entity}`);
        if (request.sort && request.sort.field !== 'timestampMillis') {
          throw badRequest(
            `Parameter 'sort.field' of action 'getTimeseriesAspectValues': time-series aspect values can only be sorted by ` +
              `timestampMillis (got '${request.sort.field}')`,
          );
        }
        const limit = request.latestValue ? 1 : request.limit;
        const points = await store.values({
          index: indexName(store.indexPrefix, resolved.ref),
          urn: request.urn,
          startTimeMillis: request.startTimeMillis,
          endTimeMillis: request.endTimeMillis,
          limit,
          order: request.sort?.order ?? 'DESCENDING',
        });
        const values = points.map((point) => {
          const value: EnvelopedTimeseriesAspect = { aspect: { value: point.eventJson, contentType: 'application/json' } };
          if (point.systemMetadataJson !== null) value.systemMetadata = JSON.parse(point.systemMetadataJson);
          return value;
        });
        const answer: TimeseriesAspectValues = {
          entityName: resolved.ref.entityType,
          aspectName: resolved.ref.aspectName,
          limit,
          ...(request.startTimeMillis === undefined ? {} : { startTimeMillis: request.startTimeMillis }),
          ...(request.endTimeMillis === undefined ? {} : { endTimeMillis: request.endTimeMillis }),
          values,
        };
        return answer;
      },
    }),
  ];
}

/** What `readTimeseries` answers: one entity's points of one aspect, newest first, values parsed (the entity service's request). */
export type TimeseriesRead = PointsRequest;

/**
 * One entity's points of one time-series aspect, newest first, as parsed values: what GraphQL's `datasetProfiles` and
 * `operations` read. An aspect the registry does not know has no points.
 */
export function timeseriesReader(store: TimeseriesStore) {
  return async (request: TimeseriesRead): Promise<Record<string, unknown>[]> => {
    const resolved = resolveAspect(request.entityType, request.aspect);
    if (!resolved.ok) return [];
    const { entityType: _entityType, aspect: _aspect, ...range } = request;
    const points = await store.values({ index: indexName(store.indexPrefix, resolved.ref), ...range, order: 'DESCENDING' });
    return points.map((point) => JSON.parse(point.eventJson) as Record<string, unknown>);
  };
}
