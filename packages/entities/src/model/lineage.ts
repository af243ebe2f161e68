import { DATAHUB_MODEL } from '@mds/core';
import { FIELD_LINEAGE_ASPECTS, FIELD_LINEAGE_TYPE } from './relationships';

/**
 * Which edges are lineage, and which way, as DataHub's lineage registry reads the model: every `@Relationship` marked
 * `isLineage`, identified by the aspect that declares it and its name (a name alone is not enough: `MemberOf` is
 * lineage from `mlModelProperties` but not from a user's `groupMembership`). An `isUpstream` edge points from the
 * downstream entity (its source) to the upstream one (`DownstreamOf`, `Consumes`, `TrainedBy`, `DerivedFrom` …);
 * the others point from upstream to downstream (`Produces`, `DataProcessInstanceProduces`, `UsedBy`, `MemberOf`).
 * Beside them, the `DownstreamOf` edges between schema fields that column-level lineage declares (`schemaField` kinds,
 * named by the aspect that declares them on another entity). Pure: no storage.
 */
export interface LineageEdgeKind {
  /** The entity type whose aspect declares the edge. */
  readonly entity: string;
  readonly aspect: string;
  readonly type: string;
  /** Whether the edge's source is downstream of its destination. */
  readonly sourceIsDownstream: boolean;
  /** The entity types the model allows at its other end. */
  readonly entityTypes: readonly string[];
}

export type LineageDirection = 'UPSTREAM' | 'DOWNSTREAM';

const aspectOwners = new Map<string, string[]>();
for (const entity of DATAHUB_MODEL.entities) {
  for (const aspect of [entity.keyAspect, ...entity.aspects]) aspectOwners.set(aspect, [...(aspectOwners.get(aspect) ?? []), entity.name]);
}

/** Every lineage edge kind of the model, by declaring entity type, aspect and name (fields naming the same kind merged). */
export const LINEAGE_EDGE_KINDS: readonly LineageEdgeKind[] = Object.freeze(
  [
    ...new Map(
      Object.entries(DATAHUB_MODEL.aspects).flatMap(([aspect, spec]) =>
        (spec.relationships ?? [])
          .filter((field) => field.isLineage)
          .flatMap((field) =>
            (aspectOwners.get(aspect) ?? []).map((entity): [string, LineageEdgeKind] => [
              `${entity}|${aspect}|${field.name}`,
              { entity, aspect, type: field.name, sourceIsDownstream: field.isUpstream, entityTypes: field.entityTypes },
            ]),
          ),
      ),
    ).values(),
    // Column-level lineage: the edges from a field to the fields it is computed from (relationships.ts fieldEdgesOf).
    ...FIELD_LINEAGE_ASPECTS.map((aspect): LineageEdgeKind => ({
      entity: 'schemaField',
      aspect,
      type: FIELD_LINEAGE_TYPE,
      sourceIsDownstream: true,
      entityTypes: ['schemaField'],
    })),
  ].sort((a, b) => (`${a.entity}|${a.aspect}|${a.type}` < `${b.entity}|${b.aspect}|${b.type}` ? -1 : 1)),
);

const unique = (kinds: readonly LineageEdgeKind[]) => [
  ...new Map(kinds.map(({ aspect, type }) => [`${aspect}|${type}`, { aspect, type }])).values(),
];

/**
 * The edges a lineage walk follows in a direction: upstream, from a downstream source to its destination (`outgoing`)
 * and from the destination of an upstream-pointing edge back to its source (`incoming`); downstream, the reverse.
 */
export function lineageEdges(direction: LineageDirection): {
  outgoing: { aspect: string; type: string }[];
  incoming: { aspect: string; type: string }[];
} {
  const fromDownstream = unique(LINEAGE_EDGE_KINDS.filter((kind) => kind.sourceIsDownstream));
  const fromUpstream = unique(LINEAGE_EDGE_KINDS.filter((kind) => !kind.sourceIsDownstream));
  return direction === 'UPSTREAM'
    ? { outgoing: fromDownstream, incoming: fromUpstream }
    : { outgoing: fromUpstream, incoming: fromDownstream };
}
