import { MODEL } from './model/data';
import type { SearchableData } from './model/types';
import { findEntity } from './registry';

/** A field DataHub indexes for an entity type, from a `@Searchable` field of one of its aspects. */
export interface SearchableField extends SearchableData {
  /** The aspect whose value holds it (`path` is within that aspect). */
  readonly aspect: string;
  /** Whether it is a facet: DataHub aggregates and filters on fields it adds to filters. */
  readonly isFacet: boolean;
  /** The facet's display name: `filterNameOverride`, else the field name. */
  readonly filterName: string;
}

const byEntity = new Map<string, readonly SearchableField[]>();

/**
 * Every searchable field of an entity type, aspect by aspect in the entity's aspect order (key aspect first), each
 * with its value path in the aspect, field type, boost and facet settings; [] for an unknown entity type.
 */
export function searchableFieldsOf(entityType: string): readonly SearchableField[] {
  const entity = findEntity(entityType);
  if (!entity) return [];
  let fields = byEntity.get(entity.name);
  if (!fields) {
    fields = entity.aspects.flatMap((aspect) =>
      (MODEL.aspects[aspect]?.searchable ?? []).map((field) => ({
        ...field,
        aspect,
        isFacet: field.addToFilters,
        filterName: field.filterNameOverride ?? field.fieldName,
      })),
    );
    byEntity.set(entity.name, fields);
  }
  return fields;
}
