import type { TimeseriesIngestPort } from '@mds/entities';
import { invalidParameter } from '@mds/schema';
import type { TimeseriesDocument, TimeseriesStore } from './port.ts';
import { proposalSchema, toDocument } from './proposal.ts';
import { REGISTRY, findEntityType, indexName, resolveAspect } from './registry.ts';

/** Time-series ingestion as @mds/entities, which owns the Rest.li ingestion actions, hands it over. */
export type TimeseriesIngest = TimeseriesIngestPort<TimeseriesDocument>;

export function createTimeseriesIngest(store: TimeseriesStore): TimeseriesIngest {
  return {
    accepts: (entityType, aspectName) => resolveAspect(entityType, aspectName).ok,
    prepare(proposal, place) {
      const parsed = proposalSchema.safeParse(proposal, { reportInput: true });
      if (!parsed.success) throw invalidParameter(place.action, parsed.error, place.path.split('.'));
      return toDocument(parsed.data, { ...place, indexPrefix: store.indexPrefix });
    },
    write: (documents) => store.write([...documents]),
    deleteEntity({ urn, entityType, aspectName, startTimeMillis, endTimeMillis }) {
      const entity = findEntityType(entityType);
      const aspects = aspectName === undefined ? (entity ? REGISTRY[entity]! : []) : [aspectName];
      const indices = aspects.flatMap((aspect) => {
        const resolved = resolveAspect(entityType, aspect);
        return resolved.ok ? [indexName(store.indexPrefix, resolved.ref)] : [];
      });
      return indices.length ? store.deleteByUrn({ urn, indices, startTimeMillis, endTimeMillis }) : Promise.resolve(0);
    },
    async latest({ urn, entityType, aspectName }) {
      const resolved = resolveAspect(entityType, aspectName);
      if (!resolved.ok) return undefined;
      const [point] = await store.values({ index: indexName(store.indexPrefix, resolved.ref), urn, limit: 1 });
      if (!point) return undefined;
      const systemMetadata: unknown = point.systemMetadataJson === null ? null : JSON.parse(point.systemMetadataJson);
      return { timestampMillis: point.timestampMillis, value: JSON.parse(point.eventJson) as unknown, systemMetadata };
    },
  };
}
