import { ENTITY_SPECS, timeseriesAspectsOf } from '@mds/core';

/** Time-series aspects per entity type, in DataHub's camelCase: the entity registry's (@mds/core), read once. */
export const REGISTRY: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  ENTITY_SPECS.map((entity) => [entity.name, timeseriesAspectsOf(entity)] as const).filter(([, aspects]) => aspects.length > 0),
);

/** An entity type that has time-series aspects (a key of REGISTRY). */
export type EntityType = string;

/** One time-series aspect of one entity type, by its canonical (registry) names. */
export interface TimeseriesAspectRef {
  entityType: EntityType;
  aspectName: string;
}

const entityTypes = Object.keys(REGISTRY);

/** The registry's spelling of an entity type, matched case-insensitively; undefined when unknown. */
export function findEntityType(name: string): EntityType | undefined {
  const lower = name.toLowerCase();
  return entityTypes.find((e) => e.toLowerCase() === lower);
}

/** The registry's spelling of a time-series aspect of `entityType`, matched case-insensitively. */
export function findAspect(entityType: EntityType, name: string): string | undefined {
  const lower = name.toLowerCase();
  return REGISTRY[entityType]!.find((a) => a.toLowerCase() === lower);
}

/** The canonical names of a time-series aspect, or which of the two names is wrong and why. */
export function resolveAspect(
  entityType: string,
  aspectName: string,
): { ok: true; ref: TimeseriesAspectRef } | { ok: false; field: 'entityType' | 'aspect'; reason: string } {
  const entity = findEntityType(entityType);
  if (!entity) {
    return {
      ok: false,
      field: 'entityType',
      reason: `unknown entity type '${entityType}' (entity types with time-series aspects: ${entityTypes.join(', ')})`,
    };
  }
  const aspect = findAspect(entity, aspectName);
  if (!aspect) {
    return {
      ok: false,
      field: 'aspect',
      reason: `'${aspectName}' is not a time-series aspect of entity type '${entity}' (its time-series aspects: ${REGISTRY[entity]!.join(', ')})`,
    };
  }
  return { ok: true, ref: { entityType: entity, aspectName: aspect } };
}

/** `INDEX_PREFIX=foo` gives `foo_`, none gives '' (DataHub's IndexConvention). */
export function prefixOf(indexPrefix: string): string {
  return indexPrefix ? `${indexPrefix}_` : '';
}

/** Lower-case `<prefix_><entity>_<aspect>aspect_v1`, e.g. `dataset_datasetprofileaspect_v1`. */
export function indexName(indexPrefix: string, ref: TimeseriesAspectRef): string {
  return `${prefixOf(indexPrefix)}${ref.entityType}_${ref.aspectName}aspect_v1`.toLowerCase();
}

/** Every index the registry can produce under this prefix. */
export function allIndexNames(indexPrefix: string): string[] {
  return entityTypes.flatMap((entityType) => REGISTRY[entityType]!.map((aspectName) => indexName(indexPrefix, { entityType, aspectName })));
}

/**
 * Entity and aspect read back from an index name (lower-case, as DataHub reports them), or undefined for a name
 * that is not a time-series index under this prefix. A trailing `_<digits>` is DataHub's reindex-in-place suffix
 * (the original name is then an alias of that concrete index), so such indices are still reported.
 */
export function parseIndexName(indexPrefix: string, name: string): { entityName: string; aspectName: string } | undefined {
  const prefix = prefixOf(indexPrefix);
  if (!name.startsWith(prefix)) return undefined;
  const match = /^([a-z0-9]+)_([a-z0-9]+)aspect_v1(?:_\d+)?$/.exec(name.slice(prefix.length));
  if (!match) return undefined;
  return { entityName: match[1]!, aspectName: match[2]! };
}
