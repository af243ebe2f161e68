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
export const declaresEdges = (aspectName: string): boolean => relationshipFieldsOf(aspectName).length > 0;

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
