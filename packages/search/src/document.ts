import { isJsonObject, parseUrn, searchableFieldsOf, type EntitySpec, type SearchableField } from '@mds/core';

/** What the index keeps of one entity, derived from its latest aspects. */
export interface SearchDocument {
  urn: string;
  /** The registry name (`dataset`, `corpuser`). */
  entityType: string;
  /** `status.removed`: soft-deleted entities are hidden unless a query asks for them. */
  removed: boolean;
  name: string;
  description: string;
  platform: string | null;
  origin: string | null;
  tags: string[];
  /** Tags of schema fields only (DataHub's `fieldTags`); `tags` holds these and the entity's own. */
  fieldTags: string[];
  terms: string[];
  owners: string[];
  domains: string[];
  browsePaths: string[];
  /** `key=value` of every custom property. */
  customProperties: string[];
  /** `container.container`: the parent container's urn. */
  containers: string[];
  /** `subTypes.typeNames` (`Table`, `View`, ...). */
  typeNames: string[];
  /** Other searchable text, weighing as a description does (DataHub's default boost, 1): key parts, the model's fields of boost 1. */
  text: string;
  /**
   * Text weighing more or less than `text`, by DataHub's `boostScore` of the fields its words come from: `top` as much
   * as the name (8 and over: qualified names, key ids), `high` 2-5 (the urn, whose tokens DataHub boosts 10 × 0.5,
   * a chart's tool), `low` under 1 (tag names 0.5, schema field labels 0.2 and descriptions 0.1). Absent: none.
   */
  boosted?: BoostedText;
  /**
   * Every `@Searchable` field of DataHub's model the entity's aspects hold, as (field name, value) pairs: filters and
   * facets on any of them, `hasValuesFieldName` (`true`/`false`) and `numValuesFieldName` (a count) included.
   */
  fields: (readonly [field: string, value: string])[];
}

/** Words by weight; see `SearchDocument.boosted`. */
export interface BoostedText {
  top: string;
  high: string;
  low: string;
}

/** The tiers a word of the text falls in, by the boost of its field: TOP, HIGH, NORMAL (`text`), LOW. */
const TOP = 0;
const HIGH = 1;
const NORMAL = 2;
const LOW = 3;
type Tier = typeof TOP | typeof HIGH | typeof NORMAL | typeof LOW;
const tierOf = (boost: number): Tier => (boost >= 8 ? TOP : boost > 1 ? HIGH : boost >= 1 ? NORMAL : LOW);

type Obj = Record<string, unknown>;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
const strings = (values: unknown[]): string[] => [...new Set(values.filter((v): v is string => typeof v === 'string' && v !== ''))];

/** Where an entity's display name comes from, first found wins (DataHub's `name` search field per entity). */
const NAME_FIELDS: readonly [aspect: string, field: string][] = [
  ['editableDatasetProperties', 'name'],
  ['datasetProperties', 'name'],
  ['dashboardInfo', 'title'],
  ['chartInfo', 'title'],
  ['dataFlowInfo', 'name'],
  ['dataJobInfo', 'name'],
  ['containerProperties', 'name'],
  ['corpUserEditableInfo', 'displayName'],
  ['corpUserInfo', 'displayName'],
  ['corpUserInfo', 'fullName'],
  ['corpGroupInfo', 'displayName'],
  ['tagProperties', 'name'],
  ['domainProperties', 'name'],
  ['dataPlatformInfo', 'displayName'],
  ['dataPlatformInfo', 'name'],
  ['glossaryTermInfo', 'name'],
  ['glossaryNodeInfo', 'name'],
  ['businessAttributeInfo', 'name'],
];
/** The key part that names an entity without a name aspect (`flowId`, not the orchestrator). */
const NAME_KEY: Readonly<Record<string, string>> = { dataFlow: 'flowId', dataJob: 'jobId', dashboard: 'dashboardId', chart: 'chartId' };
/** Entities whose platform is a key part spelled as a bare id (`looker`), not a platform urn. */
const PLATFORM_KEY: Readonly<Record<string, string>> = { dashboard: 'dashboardTool', chart: 'dashboardTool', dataFlow: 'orchestrator' };

const platformUrn = (id: string) => (id.startsWith('urn:li:dataPlatform:') ? id : `urn:li:dataPlatform:${id}`);

/** Schema fields of `schemaMetadata` and `editableSchemaMetadata`, for field-level tags, terms and text. */
function schemaFields(aspects: ReadonlyMap<string, unknown>): Obj[] {
  const schema = aspects.get('schemaMetadata');
  const editable = aspects.get('editableSchemaMetadata');
  return [
    ...list(isJsonObject(schema) ? schema.fields : undefined),
    ...list(isJsonObject(editable) ? editable.editableSchemaFieldInfo : undefined),
  ].filter(isJsonObject);
}

/** The values at a path of DataHub's model (`/fields/*\/globalTags/tags/*\/tag`: `*` for array items and map values). */
function valuesAt(value: unknown, segments: readonly string[], from = 0, found: unknown[] = []): unknown[] {
  if (from === segments.length) {
    found.push(value);
    return found;
  }
  const segment = segments[from]!;
  if (segment === '*') {
    if (Array.isArray(value)) for (const item of value) valuesAt(item, segments, from + 1, found);
    else if (isJsonObject(value)) for (const key in value) if (Object.hasOwn(value, key)) valuesAt(value[key], segments, from + 1, found);
  } else if (isJsonObject(value) && Object.hasOwn(value, segment)) valuesAt(value[segment], segments, from + 1, found);
  return found;
}

/** A field value as the index keeps it: text as is, numbers and booleans spelt out, a map as `key=value` entries. */
function indexedValues(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (isJsonObject(value))
    return Object.entries(value).flatMap(([key, item]) => (typeof item === 'object' && item !== null ? [] : [`${key}=${String(item)}`]));
  return [];
}

const NO_VALUES: readonly string[] = Object.freeze([]);

/** Field types whose values are words to find, not only values to filter on. */
const TEXT_TYPES = new Set(['TEXT', 'TEXT_PARTIAL', 'WORD_GRAM', 'KEYWORD']);

/** A `@Searchable` field with its path split, and the tier of its words when they are text queried by default. */
type CompiledField = readonly [field: SearchableField, segments: readonly string[], words: Tier | undefined];
/** An entity type's `@Searchable` fields by aspect, each with its path split once. */
const fieldsByAspect = new Map<string, ReadonlyMap<string, readonly CompiledField[]>>();
function searchableByAspect(entity: EntitySpec) {
  let byAspect = fieldsByAspect.get(entity.name);
  if (!byAspect) {
    const grouped = new Map<string, CompiledField[]>();
    for (const field of searchableFieldsOf(entity.name)) {
      const list = grouped.get(field.aspect) ?? [];
      const words = field.queryByDefault && TEXT_TYPES.has(field.fieldType) ? tierOf(field.boostScore) : undefined;
      list.push([field, field.path.split('/').filter(Boolean), words]);
      grouped.set(field.aspect, list);
    }
    fieldsByAspect.set(entity.name, (byAspect = grouped));
  }
  return byAspect;
}

/**
 * The entity's `@Searchable` fields with their values; the words of those queried by default go to `place`, in the
 * tier of their field's boost.
 */
function modelFields(entity: EntitySpec, aspects: ReadonlyMap<string, unknown>, place: (text: string, tier: Tier) => void) {
  const fields: (readonly [string, string])[] = [];
  for (const [aspect, specs] of searchableByAspect(entity)) {
    if (!aspects.has(aspect)) continue;
    const value = aspects.get(aspect);
    for (const [spec, segments, tier] of specs) {
      const found = valuesAt(value, segments);
      // One value's indexed values are distinct already (a map's keys are); most fields hold none or one.
      const values: readonly string[] =
        found.length === 0 ? NO_VALUES : found.length === 1 ? indexedValues(found[0]) : [...new Set(found.flatMap(indexedValues))];
      for (const found of values) fields.push([spec.fieldName, found]);
      if (spec.hasValuesFieldName) fields.push([spec.hasValuesFieldName, String(values.length > 0)]);
      if (spec.numValuesFieldName) fields.push([spec.numValuesFieldName, String(values.length)]);
      if (tier !== undefined) for (const found of values) if (!found.startsWith('urn:')) place(found, tier);
    }
  }
  return fields;
}

/**
 * Where DataHub's search keeps a structured property's values: `structuredProperties.<id>` (the id of the property's
 * urn, which is its qualified name for every property created by qualified name, as DataHub's filters look it up).
 */
export const STRUCTURED_PROPERTY_FIELD_PREFIX = 'structuredProperties.';
export const isStructuredPropertyField = (name: string): boolean =>
  name.startsWith(STRUCTURED_PROPERTY_FIELD_PREFIX) && name.length > STRUCTURED_PROPERTY_FIELD_PREFIX.length && !name.includes(' ');

/** The values an entity holds for each structured property (its `structuredProperties` aspect), as search fields. */
function structuredPropertyFields(value: unknown): (readonly [string, string])[] {
  const fields: (readonly [string, string])[] = [];
  for (const assigned of list(isJsonObject(value) ? value.properties : undefined)) {
    if (!isJsonObject(assigned) || typeof assigned.propertyUrn !== 'string') continue;
    const id = assigned.propertyUrn.slice(assigned.propertyUrn.indexOf(':', 'urn:li:'.length) + 1);
    for (const one of list(assigned.values)) {
      const found = isJsonObject(one) ? (one.string ?? one.double) : undefined;
      if (typeof found === 'string' || typeof found === 'number') fields.push([`${STRUCTURED_PROPERTY_FIELD_PREFIX}${id}`, String(found)]);
    }
  }
  return [...new Map(fields.map((f) => [f.join('\u0000'), f])).values()];
}

/** Where an entity's description is read from, in order: edited documentation wins over ingested, as in DataHub's UI. */
const descriptionOrders = new Map<string, readonly string[]>();
function descriptionOrder(entity: EntitySpec): readonly string[] {
  let order = descriptionOrders.get(entity.name);
  if (!order) {
    const editable = entity.aspects.filter((a) => a.startsWith('editable') || a.endsWith('EditableInfo'));
    descriptionOrders.set(entity.name, (order = [...editable, ...entity.aspects.filter((a) => !editable.includes(a))]));
  }
  return order;
}

/**
 * The search document of an entity from its latest aspect values (`aspects`: name → value, the key included).
 * Pure: the index calls it inside the write that changed the aspects.
 */
export function searchDocument(entity: EntitySpec, urn: string, aspects: ReadonlyMap<string, unknown>): SearchDocument {
  const key: Obj =
    (aspects.get(entity.keyAspect) as Obj | undefined) ?? Object.fromEntries(entity.keyFields.map((f, i) => [f, parseUrn(urn).parts[i]]));
  const field = (aspect: string, name: string) => {
    const value = aspects.get(aspect);
    return isJsonObject(value) ? value[name] : undefined;
  };
  const fields = schemaFields(aspects);
  // Each text in the tier of the heaviest field holding it.
  const tiers = new Map<string, Tier>();
  const place = (text: unknown, tier: Tier) => {
    if (typeof text !== 'string' || text === '') return;
    const known = tiers.get(text);
    if (known === undefined || tier < known) tiers.set(text, tier);
  };
  const model = modelFields(entity, aspects, place);

  const nameKey = NAME_KEY[entity.name] ?? (entity.keyFields.includes('name') ? 'name' : entity.keyFields.at(-1)!);
  const name = NAME_FIELDS.map(([aspect, f]) => text(field(aspect, f))).find(Boolean) ?? text(key[nameKey]) ?? urn;

  let description = '';
  for (const aspect of descriptionOrder(entity)) {
    const found = aspects.has(aspect) ? text(field(aspect, 'description')) : undefined;
    if (found) {
      description = found;
      break;
    }
  }

  const platformKey = PLATFORM_KEY[entity.name];
  const flowPlatform = entity.name === 'dataJob' && typeof key.flow === 'string' ? parseUrn(key.flow).parts[0] : undefined;
  const platformId =
    text(key.platform) ??
    text(field('dataPlatformInstance', 'platform')) ??
    (platformKey ? text(key[platformKey]) : undefined) ??
    flowPlatform;

  const customProperties = entity.aspects.flatMap((a) => {
    const props = field(a, 'customProperties');
    return isJsonObject(props) ? Object.entries(props).map(([k, v]) => `${k}=${String(v)}`) : [];
  });
  const tagsOf = (value: unknown) => list(isJsonObject(value) ? value.tags : undefined).map((t) => (isJsonObject(t) ? t.tag : undefined));
  const termsOf = (value: unknown) => list(isJsonObject(value) ? value.terms : undefined).map((t) => (isJsonObject(t) ? t.urn : undefined));

  return {
    urn,
    entityType: entity.name,
    removed: field('status', 'removed') === true,
    name,
    description,
    platform: platformId ? platformUrn(platformId) : null,
    origin: text(key.origin) ?? text(field('containerProperties', 'env')) ?? null,
    tags: strings([...tagsOf(aspects.get('globalTags')), ...fields.flatMap((f) => tagsOf(f.globalTags))]),
    fieldTags: strings(fields.flatMap((f) => tagsOf(f.globalTags))),
    terms: strings([...termsOf(aspects.get('glossaryTerms')), ...fields.flatMap((f) => termsOf(f.glossaryTerms))]),
    owners: strings(list(field('ownership', 'owners')).map((o) => (isJsonObject(o) ? o.owner : undefined))),
    domains: strings(list(field('domains', 'domains'))),
    browsePaths: strings(list(field('browsePaths', 'paths'))),
    customProperties,
    containers: strings([field('container', 'container')]),
    typeNames: strings(list(field('subTypes', 'typeNames'))),
    ...weighedText(),
    fields: [...model, ...structuredPropertyFields(aspects.get('structuredProperties'))],
  };

  /** entities-api §9.3: words also match the URN, key parts, qualified names, schema fields and tag names. */
  function weighedText(): { text: string; boosted: BoostedText } {
    place(urn, HIGH);
    for (const a of entity.aspects) place(field(a, 'qualifiedName'), NORMAL);
    for (const part of Object.values(key)) if (typeof part === 'string' && !part.startsWith('urn:')) place(part, NORMAL);
    for (const t of [...tagsOf(aspects.get('globalTags')), ...fields.flatMap((f) => tagsOf(f.globalTags))])
      if (typeof t === 'string') place(t.slice(t.lastIndexOf(':') + 1), LOW);
    // The name and description have their own columns.
    tiers.delete(name);
    tiers.delete(description);
    const by: [string[], string[], string[], string[]] = [[], [], [], []];
    for (const [text, tier] of tiers) by[tier].push(text);
    return { text: by[NORMAL].join(' '), boosted: { top: by[TOP].join(' '), high: by[HIGH].join(' '), low: by[LOW].join(' ') } };
  }
}
