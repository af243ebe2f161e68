export { UrnError, decodeUrnPathSegment, makeUrn, parseRestliList, parseUrn, restliArrayParameter, urnTypeOf, type Urn } from './urn';
export {
  ENTITY_SPECS,
  aspectData,
  aspectOfClass,
  aspectSpec,
  entityAspect,
  entityOfSnapshotClass,
  findEntity,
  findEntityOfUrn,
  keyAspectValue,
  parseEntityUrn,
  timeseriesAspectsOf,
  urnFromKeyAspect,
  type AspectKind,
  type AspectSpec,
  type EntitySpec,
} from './registry';
export { MODEL as DATAHUB_MODEL } from './model/data';
export type * from './model/types';
export { MAX_JSON_NESTING, JsonNestingError, isJsonObject, jsonTextDeeperThan, nestedDeeperThan, parseJsonWithin } from './json-depth';
export { validateAspect } from './validate';
export { parseValueUrn } from './urn-value';
export { ASPECT_SHAPES, type Shape } from './aspect-schemas';
export { formatFixed2 } from './java-format';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pageOf, type Page } from './paging';
export { whenReady, type MaybePromise } from './maybe-promise';
export { relationshipFieldsOf, relationshipsOf, type AspectRelationship } from './relationships';
export { searchableFieldsOf, type SearchableField } from './search-fields';
export { pegasusFromAvro } from './avro';
