export { UrnError, decodeUrnPathSegment, makeUrn, parseRestliList, parseUrn, urnTypeOf, type Urn } from './urn';
export type { AspectKind, AspectSpec } from './aspects';
export {
  ENTITY_SPECS,
  aspectOfClass,
  aspectSpec,
  entityAspect,
  entityOfSnapshotClass,
  findEntity,
  findEntityOfUrn,
  keyAspectValue,
  timeseriesAspectsOf,
  urnFromKeyAspect,
  type EntitySpec,
} from './registry';
export { MAX_JSON_NESTING, JsonNestingError, isJsonObject, jsonTextDeeperThan, nestedDeeperThan, parseJsonWithin } from './json-depth';
export { validateAspect } from './validate';
export { ASPECT_SHAPES, type Shape } from './aspect-schemas';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageOf, type Page } from './paging';
