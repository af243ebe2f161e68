import { invalidParameter } from '@mds/schema';
import type { TimeseriesDocument, TimeseriesStore } from './port.ts';
import { proposalSchema, toDocument } from './proposal.ts';
import { REGISTRY, findEntityType, indexName, resolveAspect } from './registry.ts';

/** Where a proposal sits in a request, for messages: `{action: 'ingestProposalBatch', path: 'proposals.3'}`. */
export interface ProposalPlace {
  action: string;
  path: string;
}

/**
 * Time-series ingestion, for the package that owns the Rest.li ingestion actions (@mds/entities): it hands over the
 * proposals whose aspect is a time-series one, validates them all (`prepare`), then writes them (`write`), so a bad
 * proposal writes nothing.
 */
export interface TimeseriesIngest {
  /** Whether `aspectName` is a time-series aspect of `entityType` (both matched case-insensitively). */
  accepts(entityType: string, aspectName: string): boolean;
  /** The document DataHub would index for the proposal, or a 400 naming the parameter at fault. */
  prepare(proposal: unknown, place: ProposalPlace): TimeseriesDocument;
  /** Writes prepared documents in one transaction (embedded) or one _bulk request. */
  write(documents: readonly TimeseriesDocument[]): Promise<void>;
  /**
   * Deletes one entity's points, of one time-series aspect or of every one its entity type has, in an inclusive
   * window (open when absent); answers how many went (hard delete, entities-api §7.4).
   */
  deleteEntity(request: { urn: string; entityType: string; aspectName?: string; startTimeMillis?: number; endTimeMillis?: number }): Promise<number>;
  /** The newest point of one entity's time-series aspect (`/entitiesV2` answers it as a TIMESERIES aspect). */
  latest(request: { urn: string; entityType: string; aspectName: string }): Promise<LatestPoint | undefined>;
}

export interface LatestPoint {
  timestampMillis: number;
  value: unknown;
  systemMetadata: unknown;
}

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
