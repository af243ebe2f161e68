import { DATAHUB_MODEL, relationshipFieldsOf, relationshipsOf } from '@mds/core';
/**
 * Relationship edges derived from aspect values: every `@Relationship` field of DataHub's model, as `@mds/core`
 * reads it (entities-api §7.6). Pure: no storage, no I/O. Values where a field holds no string are skipped, never
 * thrown on.
 */

export interface Edge {
  type: string;
  destination: string;
  /** When the edge was made and last changed (epoch ms) and by whom, where the aspect says (`created/time` …). */
  createdOn?: number;
  createdActor?: string;
  updatedOn?: number;
  updatedActor?: string;
  /** Drawn by hand in the UI (the edge's properties have `source: "UI"`): lineage's time bounds keep it. */
  manual?: boolean;
}

const RELATIONSHIP_FIELDS = Object.values(DATAHUB_MODEL.aspects).flatMap((aspect) => aspect.relationships ?? []);

/** Every relationship name DataHub's model declares (for validating `types=List(...)`), sorted. */
export const RELATIONSHIP_TYPES: readonly string[] = Object.freeze([...new Set(RELATIONSHIP_FIELDS.map((field) => field.name))].sort());

/** Whether values of the aspect can declare edges at all (others need no edge bookkeeping). */
export const declaresEdges = (aspectName: string): boolean =>
  relationshipFieldsOf(aspectName).length > 0 || FIELD_LINEAGE_ASPECTS.includes(aspectName);

/**
 * The outgoing edges one aspect value of an entity declares, one per type and destination (a destination named by two
 * fields, as `inputDatasets` and `inputDatasetEdges`, keeps the first field's times and actors, filled in from the
 * later ones), in the model's field order.
 */
export function edgesOf(aspectName: string, value: unknown): Edge[] {
  const byKey = new Map<string, Edge>();
  for (const relationship of relationshipsOf(aspectName, value)) {
    const { type, destination } = relationship;
    if (destination === '') continue;
    const key = `${type}\u0000${destination}`;
    let edge = byKey.get(key);
    if (!edge) byKey.set(key, (edge = { type, destination }));
    // Only fields with a value are set: an edge has no key holding undefined.
    if (edge.createdOn === undefined && relationship.createdOn !== undefined) edge.createdOn = relationship.createdOn;
    if (edge.createdActor === undefined && relationship.createdActor !== undefined) edge.createdActor = relationship.createdActor;
    if (edge.updatedOn === undefined && relationship.updatedOn !== undefined) edge.updatedOn = relationship.updatedOn;
    if (edge.updatedActor === undefined && relationship.updatedActor !== undefined) edge.updatedActor = relationship.updatedActor;
    if (relationship.properties?.source === 'UI') edge.manual = true;
  }
  return [...byKey.values()];
}

/** A schema field's urn (DataHub's SchemaFieldUtils.generateSchemaFieldUrn: the path's parentheses and commas escaped). */
export const schemaFieldUrn = (parentUrn: string, fieldPath: string): string =>
  `urn:li:schemaField:(${parentUrn},${fieldPath.replaceAll('(', '%28').replaceAll(')', '%29').replaceAll(',', '%2C')})`;

/** The relationship of a field to the fields (or datasets) it is computed from. */
export const FIELD_LINEAGE_TYPE = 'DownstreamOf';

/** The aspects whose values declare edges between fields, beside their `@Relationship` edges from their own entity. */
export const FIELD_LINEAGE_ASPECTS: readonly string[] = Object.freeze(['upstreamLineage', 'dataJobInputOutput', 'inputFields']);

/** An edge an aspect declares between two entities neither of which is the aspect's own (a field and its upstream field). */
export interface FieldEdge {
  source: string;
  type: string;
  destination: string;
}

const urnsIn = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((u): u is string => typeof u === 'string' && u !== '') : [];
const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/**
 * The field-to-field edges one aspect value of `urn` declares, as DataHub's graph indexing adds them by hand (the model's
 * `@Relationship` links only the aspect's own entity): for `fineGrainedLineages` of `upstreamLineage` and
 * `dataJobInputOutput`, `DownstreamOf` from every downstream to every upstream — the lineages read in order up to the
 * first lacking either list, where DataHub stops too; for `inputFields`, `DownstreamOf` from the entity's own field (its
 * urn and the field's path) to the `schemaFieldUrn` it is read from. One edge per source, type and destination.
 */
export function fieldEdgesOf(urn: string, aspectName: string, value: unknown): FieldEdge[] {
  const edges = new Map<string, FieldEdge>();
  const add = (source: string, destination: string) =>
    edges.set(`${source}\u0000${destination}`, { source, type: FIELD_LINEAGE_TYPE, destination });
  const stored = record(value);
  if (aspectName === 'upstreamLineage' || aspectName === 'dataJobInputOutput') {
    for (const item of Array.isArray(stored.fineGrainedLineages) ? stored.fineGrainedLineages : []) {
      const lineage = record(item);
      if (!Array.isArray(lineage.downstreams) || !Array.isArray(lineage.upstreams)) break;
      for (const downstream of urnsIn(lineage.downstreams)) for (const upstream of urnsIn(lineage.upstreams)) add(downstream, upstream);
    }
  } else if (aspectName === 'inputFields') {
    for (const item of Array.isArray(stored.fields) ? stored.fields : []) {
      const field = record(item);
      const path = record(field.schemaField).fieldPath;
      if (typeof field.schemaFieldUrn === 'string' && field.schemaFieldUrn !== '' && typeof path === 'string')
        add(schemaFieldUrn(urn, path), field.schemaFieldUrn);
    }
  }
  return [...edges.values()];
}
