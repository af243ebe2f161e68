import { DATAHUB_MODEL, ENTITY_SPECS, findEntity, searchableFieldsOf } from '@mds/core';
import { deleteRows, writeRows, type SqlDatabase, type SqlExecutor } from '@mds/db';
import { fileURLToPath } from 'node:url';
import { queryWords, SEARCH_DIALECTS, type SearchDialect } from './dialects';
import { isStructuredPropertyField, type SearchDocument } from './document';
import {
  FACET_FIELDS,
  SearchQueryError,
  type BrowseResult,
  type Criterion,
  type FacetField,
  type SearchIndex,
  type SearchQuery,
  type SearchResult,
} from './port';

const MIGRATIONS = {
  sqlite: fileURLToPath(new URL('../migrations/sqlite', import.meta.url)),
  postgres: fileURLToPath(new URL('../migrations/postgres', import.meta.url)),
} as const;

/** Filter fields held as columns of `search_document`, and those held as rows of `search_term`. */
const COLUMNS: Readonly<Record<string, string>> = {
  platform: 'd.platform',
  origin: 'd.origin',
  _entityType: 'd.entity_type',
  entityType: 'd.entity_type',
  urn: 'd.urn',
  name: 'd.name',
  description: 'd.description',
  // DataHub indexes a chart's or dashboard's title as `title`; here it is their name, and other entities have none.
  title: "CASE WHEN d.entity_type IN ('chart', 'dashboard') THEN d.name END",
};
const TERMS: Readonly<Record<string, string>> = {
  tags: 'tags',
  fieldTags: 'fieldTags',
  glossaryTerms: 'terms',
  owners: 'owners',
  domains: 'domains',
  browsePaths: 'browsePaths',
  customProperties: 'customProperties',
  container: 'containers',
  typeNames: 'typeNames',
};
const TERM_FIELDS = [
  'tags',
  'fieldTags',
  'terms',
  'owners',
  'domains',
  'browsePaths',
  'customProperties',
  'containers',
  'typeNames',
] as const;
/** Rows per multi-row INSERT: an entity with thousands of tags must stay under SQLite's bound-parameter limit. */
const TERM_ROWS_PER_STATEMENT = 300;
const URNS_PER_STATEMENT = 500;
const byFieldThenValue = (a: readonly [string, string], b: readonly [string, string]) =>
  a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0;
const FACET_NAMES: Readonly<Record<FacetField, string>> = {
  _entityType: 'Type',
  platform: 'Platform',
  origin: 'Environment',
  tags: 'Tag',
  owners: 'Owned By',
  domains: 'Domain',
  glossaryTerms: 'Glossary Term',
};

/**
 * The entity types a name means: `DATASET` or `dataset` → `dataset`; GraphQL's `OTHER`, which DataHub gives to several
 * internal types, → each of them; unknown names stay as given (they match nothing).
 */
const registryNames = (value: string): string[] => {
  const entity = findEntity(value);
  if (entity) return [entity.name];
  const typed = ENTITY_SPECS.filter((e) => e.graphqlType === value).map((e) => e.name);
  return typed.length ? typed : [value];
};
/** How search answers an entity type: its GraphQL type, or its registry name where that type is the shared `OTHER`. */
const graphqlType = (name: string) => {
  const type = findEntity(name)?.graphqlType;
  return type === undefined || type === 'OTHER' ? name : type;
};

/** The term rows of a `@Searchable` field of DataHub's model are kept apart from the fields above by a prefix. */
const MODEL_TERM = '@';
/**
 * How a filter compares a field's values: as numbers (DataHub indexes `COUNT` and `numValuesFieldName` fields as longs,
 * `DATETIME` ones as epoch-millisecond dates), as booleans (`BOOLEAN`, `hasValuesFieldName`), or as text.
 */
type ValueKind = 'number' | 'boolean' | 'text';
const KIND_OF_TYPE: Readonly<Record<string, ValueKind>> = { COUNT: 'number', DATETIME: 'number', BOOLEAN: 'boolean' };
interface ModelField {
  facetName?: string;
  /** The kind every declaration of the name agrees on; `text` when they differ. */
  kind?: ValueKind;
}
/**
 * Every `@Searchable` field name of the model (any entity type), with the filter name of the first facet declaring it
 * and the kind of its values.
 */
const MODEL_FIELDS: ReadonlyMap<string, ModelField> = (() => {
  const fields = new Map<string, ModelField>();
  const declare = (name: string, kind: ValueKind) => {
    const known = fields.get(name) ?? {};
    known.kind = known.kind === undefined || known.kind === kind ? kind : 'text';
    fields.set(name, known);
    return known;
  };
  for (const aspect of Object.values(DATAHUB_MODEL.aspects))
    for (const field of aspect.searchable ?? []) {
      const known = declare(field.fieldName, KIND_OF_TYPE[field.fieldType] ?? 'text');
      if (field.addToFilters && known.facetName === undefined) known.facetName = field.filterNameOverride ?? field.fieldName;
      if (field.hasValuesFieldName) declare(field.hasValuesFieldName, 'boolean');
      if (field.numValuesFieldName) declare(field.numValuesFieldName, 'number');
    }
  // DataHub's web UI filters on `hasFailingAssertions` (its search filter, a lineage tab's upstream health), a field
  // no aspect of DataHub's open-source model declares: its Elasticsearch answers a term on that unmapped field with no
  // hits, not an error. Here it is a boolean field no document carries, so the filter matches nothing the same way.
  declare('hasFailingAssertions', 'boolean');
  return fields;
})();
const kindOf = (field: string): ValueKind =>
  field === 'removed' ? 'boolean' : Object.hasOwn(COLUMNS, field) ? 'text' : (MODEL_FIELDS.get(field)?.kind ?? 'text');
const RANGES = new Set(['GREATER_THAN', 'GREATER_THAN_OR_EQUAL_TO', 'LESS_THAN', 'LESS_THAN_OR_EQUAL_TO']);
/** A number as DataHub's range and term queries on a long or date field take it: decimal digits, a sign, a fraction. */
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * A criterion's values as its field's kind compares them: numbers for a numeric field, `true`/`false` for a boolean
 * one (any case); anything else is the caller's mistake, named with the field.
 */
function typedValues(field: string, kind: ValueKind, values: readonly string[]): (string | number)[] {
  if (kind === 'number')
    return values.map((value) => {
      const trimmed = value.trim();
      if (!NUMBER.test(trimmed))
        throw new SearchQueryError(
          `Filter on ${field} needs numbers (a count, or a time in epoch milliseconds): ${JSON.stringify(value)} is not one`,
        );
      return Number(trimmed);
    });
  if (kind === 'boolean')
    return values.map((value) => {
      const lower = value.trim().toLowerCase();
      if (lower !== 'true' && lower !== 'false')
        throw new SearchQueryError(`Filter on ${field} needs true or false: ${JSON.stringify(value)} is neither`);
      return lower;
    });
  return [...values];
}
/**
 * Model fields answered by a column or one of the term fields above (filters and facets read those first): their
 * values are not stored twice.
 */
const answeredElsewhere = (name: string) => name === 'removed' || Object.hasOwn(COLUMNS, name) || Object.hasOwn(TERMS, name);
/** The term field (`search_value.field`) a filter or facet name reads, if it is one. */
const termField = (name: string): string | undefined =>
  Object.hasOwn(TERMS, name) ? TERMS[name] : MODEL_FIELDS.has(name) || isStructuredPropertyField(name) ? `${MODEL_TERM}${name}` : undefined;
/** The facets DataHub aggregates for the entity types (their fields with `addToFilters`), beyond mds's own. */
const modelFacets = (entityTypes: readonly string[]): string[] => {
  const names = new Set<string>();
  for (const type of entityTypes)
    for (const field of searchableFieldsOf(type))
      if (field.isFacet && !(FACET_FIELDS as readonly string[]).includes(field.fieldName)) names.add(field.fieldName);
  return [...names].sort();
};

/**
 * The term fields (`search_value.field`) a facet may count by default: mds's own facets, sub-types, and every field
 * DataHub's model makes a facet (`addToFilters`) for any entity type. Their rows are kept in `search_facet` too, so a
 * facet counts from a document's few facet rows rather than from all its terms. A facet of another field (a structured
 * property asked for) counts from `search_term` as every filter does.
 */
const FACET_TERM_FIELDS: readonly string[] = [
  ...new Set(
    [...FACET_FIELDS, 'typeNames', ...modelFacets(ENTITY_SPECS.map((e) => e.name))]
      .map((name) => termField(name))
      .filter((field): field is string => field !== undefined),
  ),
].sort();
const FACET_TERM_SET: ReadonlySet<string> = new Set(FACET_TERM_FIELDS);
/** The table holding a term field's rows for counting: `search_facet` for the facet fields, else `search_term`. */
const facetTable = (field: string) => (FACET_TERM_SET.has(field) ? 'search_facet' : 'search_term');

/** DataHub's separator of a nested facet's levels: `_entityType␞typeNames` counts types, then sub-types within each. */
export const FACET_LEVEL_SEPARATOR = '\u241E';
/** Types, then sub-types within each: one of DataHub's default facets, which its web UI's type filter reads. */
export const ENTITY_SUB_TYPE_FACET = `_entityType${FACET_LEVEL_SEPARATOR}typeNames`;
/** The document columns a facet (or a level of one) groups directly. */
const FACET_COLUMNS: Readonly<Record<string, string>> = { _entityType: 'entity_type', platform: 'platform', origin: 'origin' };
const isFlatFacetField = (name: string): boolean =>
  Object.hasOwn(FACET_COLUMNS, name) || (!Object.hasOwn(COLUMNS, name) && name !== 'removed' && termField(name) !== undefined);

/**
 * Whether the index can count a facet of this name: a document column it groups, a term field or a model field, or
 * levels of those joined by FACET_LEVEL_SEPARATOR (as DataHub's aggregation query builder accepts them).
 */
export const isFacetField = (name: string): boolean =>
  name.split(FACET_LEVEL_SEPARATOR).every((level) => level !== '' && isFlatFacetField(level));

/**
 * The values a facet answers, most counted first: at most `max` of a flat facet; of a nested one at most `max` at its
 * first level and `max` under each value above (DataHub bounds each level's terms aggregation the same way).
 */
function limitFacetValues(sorted: readonly { value: string; count: number }[], max: number) {
  const kept = new Set<string>();
  const perParent = new Map<string, number>();
  // Sorted most counted first, a path after its parent (never counted less): a child is kept only under a kept parent.
  return sorted.filter(({ value }) => {
    const cut = value.lastIndexOf(FACET_LEVEL_SEPARATOR);
    const parent = cut < 0 ? '' : value.slice(0, cut);
    if (parent !== '' && !kept.has(parent)) return false;
    const n = perParent.get(parent) ?? 0;
    if (n >= max) return false;
    perParent.set(parent, n + 1);
    kept.add(value);
    return true;
  });
}

/** A criterion's condition, EQUAL when none is named. */
const conditionOf = (criterion: Criterion): string => (criterion.condition ?? 'EQUAL').toUpperCase();
/** A criterion's values as sent: its list, else its single `value` (DataHub's older form). */
const valuesOf = (criterion: Criterion): readonly string[] =>
  criterion.values?.length ? criterion.values : criterion.value !== undefined ? [criterion.value] : [];

/** One criterion (entities-api §7.4 / §9.3) as SQL over `d` (a search_document row), with its parameters. */
function criterionSql(dialect: SearchDialect, criterion: Criterion): { sql: string; params: unknown[] } {
  const condition = conditionOf(criterion);
  const raw = valuesOf(criterion);
  const named = criterion.field === '_entityType' || criterion.field === 'entityType' ? raw.flatMap(registryNames) : [...raw];
  // Equality and ranges compare by the field's kind (numbers as numbers, booleans as booleans); text conditions as text.
  // A structured property's kind is its definition's, which the document does not carry: a range whose bounds are all
  // numbers compares as numbers (as DataHub's number-typed property fields do), among the values that are numbers.
  const range = RANGES.has(condition);
  const kind =
    range && isStructuredPropertyField(criterion.field) && named.length > 0 && named.every((v) => NUMBER.test(v.trim()))
      ? 'number'
      : range || condition === 'EQUAL' || condition === 'IN'
        ? kindOf(criterion.field)
        : 'text';
  const values = typedValues(criterion.field, kind, named);
  const anyOf = (one: string, params: (v: string | number) => unknown[]) => ({
    sql: `(${values.map(() => one).join(' OR ')})`,
    params: values.flatMap(params),
  });
  // Values are compared as text, never as LIKE patterns: `%` and `_` in a value mean themselves.
  const test = (column: string): { sql: string; params: unknown[] } => {
    const target = kind === 'number' ? dialect.asNumber(column) : column;
    if (values.length === 0 && condition !== 'EXISTS')
      throw new SearchQueryError(`Filter on ${criterion.field} with condition ${condition} needs values`);
    switch (condition) {
      case 'EQUAL':
      case 'IN':
        return { sql: `${target} IN (${values.map(() => '?').join(', ')})`, params: values };
      case 'IEQUAL':
        return anyOf(`lower(${target}) = lower(?)`, (v) => [v]);
      case 'CONTAIN':
        return anyOf(dialect.contains(target, '?'), (v) => [v]);
      case 'START_WITH':
        return anyOf(`substr(${target}, 1, length(?)) = ?`, (v) => [v, v]);
      case 'END_WITH':
        return anyOf(`substr(${target}, length(${target}) - length(?) + 1) = ?`, (v) => [v, v]);
      case 'GREATER_THAN':
        return anyOf(`${target} > ?`, (v) => [v]);
      case 'GREATER_THAN_OR_EQUAL_TO':
        return anyOf(`${target} >= ?`, (v) => [v]);
      case 'LESS_THAN':
        return anyOf(`${target} < ?`, (v) => [v]);
      case 'LESS_THAN_OR_EQUAL_TO':
        return anyOf(`${target} <= ?`, (v) => [v]);
      case 'EXISTS':
        return { sql: `(${column} IS NOT NULL AND ${column} <> '')`, params: [] };
      default:
        throw new SearchQueryError(`Unsupported filter condition ${condition}`);
    }
  };
  let found: { sql: string; params: unknown[] };
  if (criterion.field === 'removed') {
    // The column holds 1 or 0; as text `false` < `true`, as booleans order.
    found =
      condition === 'EQUAL' || condition === 'IN'
        ? { sql: `d.removed IN (${values.map(() => '?').join(', ')})`, params: values.map((v) => (v === 'true' ? 1 : 0)) }
        : test("CASE d.removed WHEN 1 THEN 'true' ELSE 'false' END");
  } else if (Object.hasOwn(COLUMNS, criterion.field)) {
    found = test(COLUMNS[criterion.field]!);
  } else if (termField(criterion.field) !== undefined) {
    const inner = test('v.value');
    found = {
      sql: `EXISTS (SELECT 1 FROM search_term t JOIN search_value v ON v.vid = t.vid WHERE t.id = d.id AND v.field = ? AND ${inner.sql})`,
      params: [termField(criterion.field), ...inner.params],
    };
  } else {
    throw new SearchQueryError(
      `Unknown filter field ${criterion.field}; known: ${[...Object.keys(COLUMNS), ...Object.keys(TERMS), 'removed'].join(', ')} and the searchable fields of DataHub's model`,
    );
  }
  return criterion.negated ? { sql: `NOT (${found.sql})`, params: found.params } : found;
}

/**
 * A term criterion every group of `filters` holds alike, compared by equality and not negated, as its term field and
 * values: every match has one of those values, so a query may start from the documents holding them.
 */
function leadingTerm(filters: SearchQuery['filters']): { field: string; values: string[] } | undefined {
  const groups = (filters ?? []).filter((group) => group.length > 0);
  if (groups.length === 0 || groups.length !== (filters ?? []).length) return undefined;
  const key = (c: Criterion) => JSON.stringify([c.field, valuesOf(c), conditionOf(c), c.negated ?? false]);
  const candidate = groups[0]!.find((c) => {
    const condition = conditionOf(c);
    return (
      !c.negated &&
      (condition === 'EQUAL' || condition === 'IN') &&
      valuesOf(c).length > 0 &&
      // As criterionSql reads it: a column first, then a term field.
      c.field !== 'removed' &&
      !Object.hasOwn(COLUMNS, c.field) &&
      termField(c.field) !== undefined &&
      kindOf(c.field) === 'text' &&
      groups.every((group) => group.some((other) => key(other) === key(c)))
    );
  });
  if (!candidate) return undefined;
  return { field: termField(candidate.field)!, values: [...new Set(valuesOf(candidate))] };
}

/** A query's match set as SQL over `search_document d`: its FROM and WHERE, their parameters, and its words if any. */
interface MatchSet {
  from: string;
  where: string;
  params: unknown[];
  ranked: readonly string[] | null;
}
/** How many matching documents hold one value of each column the facets group (null: not grouped). */
interface Combo {
  entity_type: string | null;
  platform: string | null;
  origin: string | null;
  count: number;
}
/** A combination of the columns' values of matching documents, with the documents' ids (`idsAggregate`). */
interface FoundGroup extends Combo {
  entity_type: string;
  ids: unknown;
}
type Found = FoundGroup[];
type FoundColumn = 'entity_type' | 'platform' | 'origin';

/**
 * The search index on the storage port, on either dialect: documents in `search_document`, their multi-valued fields
 * (tags, owners, ...) as rows of `search_term` for exact filters and facets (each distinct value numbered once in
 * `search_value`, so facets group integers), their text ranked name over description over the rest (SQLite: FTS5
 * and BM25; PostgreSQL: a weighted tsvector, ts_rank: see dialects.ts). `put` and `remove` run in the caller's
 * transaction, so the index commits with the aspect write that changed it.
 *
 * On SQLite no write here opens a statement journal (no RETURNING; multi-row inserts are OR IGNORE, so none can abort
 * half done): at each journal FTS5 writes its pending index out, a segment per document, which made indexing 2× dearer.
 */
export function createSqlSearchIndex(db: SqlDatabase): SearchIndex {
  const dialect = SEARCH_DIALECTS[db.dialect];
  /** An or of and-groups as one condition over `d`; undefined when no group has a criterion. */
  function filtersSql(filters: SearchQuery['filters']): { sql: string; params: unknown[] } | undefined {
    const groups = (filters ?? []).filter((group) => group.length > 0);
    if (groups.length === 0) return undefined;
    const params: unknown[] = [];
    const ored = groups.map((group) => {
      const anded = group.map((criterion) => criterionSql(dialect, criterion));
      params.push(...anded.flatMap((c) => c.params));
      return `(${anded.map((c) => c.sql).join(' AND ')})`;
    });
    return { sql: `(${ored.join(' OR ')})`, params };
  }
  /** The WHERE clause of a query's match set over `search_document d` (and `search_text` when there is text). */
  function matchSet(query: SearchQuery) {
    const where: string[] = [];
    const params: unknown[] = [];
    const words = queryWords(query.input);
    const ranked = typeof words === 'object' ? words : null;
    if (ranked) {
      const matches = dialect.matches(ranked);
      where.push(matches.sql);
      params.push(...matches.params);
    }
    if (words === 'none') where.push('1 = 0');
    // A filter on `removed` says itself which entities it wants: soft-deleted ones are then not hidden.
    const filtersRemoved = (query.filters ?? []).some((group) => group.some((c) => c.field === 'removed'));
    if (!query.includeSoftDeleted && !filtersRemoved) where.push('d.removed = 0');
    if (query.entityTypes?.length) {
      const names = query.entityTypes.flatMap(registryNames);
      where.push(`d.entity_type IN (${names.map(() => '?').join(', ')})`);
      params.push(...names);
    }
    const filtered = filtersSql(query.filters);
    if (filtered) {
      where.push(filtered.sql);
      params.push(...filtered.params);
    }
    // Without words, a term every group requires (a scope: the entities naming some urns as siblings) leads: its
    // documents are found through the term index, rather than every document of the types checked against it.
    const leading = ranked ? undefined : leadingTerm(query.filters);
    const from = ranked
      ? dialect.textFrom
      : leading
        ? `(SELECT DISTINCT t.id FROM search_value v JOIN search_term t ON t.vid = v.vid
            WHERE v.field = ? AND v.value IN (${leading.values.map(() => '?').join(', ')})) lead
           ${dialect.joinInOrder} search_document d ON d.id = lead.id`
        : 'search_document d';
    if (leading) params.unshift(leading.field, ...leading.values);
    return { from, where: where.length ? `WHERE ${where.join(' AND ')}` : '', params, ranked };
  }

  /**
   * A match set of words, found once: its documents grouped by the columns facets count, each group with its ids. The
   * facets are then counted from these groups and from the facet rows of their ids, instead of searching the text
   * again for each scan.
   */
  async function foundOnce(match: MatchSet): Promise<Found> {
    return db.all<FoundGroup>(
      `SELECT d.entity_type, d.platform, d.origin, count(*) AS count, ${dialect.idsAggregate} AS ids FROM ${match.from} ${match.where}
        GROUP BY d.entity_type, d.platform, d.origin`,
      match.params,
    );
  }

  /** The ids of the documents found, by their value of `column` (all under null without one). */
  function groupIds(found: Found, column: FoundColumn | undefined) {
    const groups = new Map<string | null, unknown[]>();
    for (const group of found) {
      const value = column === undefined ? null : group[column];
      groups.set(value, [...(groups.get(value) ?? []), group.ids]);
    }
    return new Map([...groups].map(([value, parts]) => [value, dialect.joinIds(parts)]));
  }

  /**
   * Every facet of a match set in two grouped scans, whatever the number of facets: one over the document columns
   * (which also gives the total), one over the facet rows (and one over the term rows for a facet of another field).
   * Counts are over the whole match set, not the page. With `found` (the match set's documents, found once), the columns
   * are counted here and the scans read the rows of its ids.
   */
  async function countFacets(match: MatchSet, fields: readonly string[], found?: Found) {
    const counts = new Map<string, Map<string, number>>(fields.map((f) => [f, new Map()]));
    const add = (field: string, value: string | null, count: number) => {
      const values = counts.get(field);
      if (values && value !== null) values.set(value, (values.get(value) ?? 0) + count);
    };
    // No facet asked (a plain page of hits): the total alone, without grouping the match set.
    const combos: Combo[] = found
      ? found
      : fields.length
        ? await db.all<Combo>(
            `SELECT d.entity_type, d.platform, d.origin, count(*) AS count FROM ${match.from} ${match.where} GROUP BY d.entity_type, d.platform, d.origin`,
            match.params,
          )
        : await db.all<Combo>(
            `SELECT NULL AS entity_type, NULL AS platform, NULL AS origin, count(*) AS count FROM ${match.from} ${match.where}`,
            match.params,
          );
    let total = 0;
    for (const combo of combos) {
      const count = Number(combo.count);
      total += count;
      add('_entityType', combo.entity_type, count);
      add('platform', combo.platform, count);
      add('origin', combo.origin, count);
      // A nested facet over a column starts with that column's counts, which this scan already gives.
      for (const field of fields) {
        const first = field.includes(FACET_LEVEL_SEPARATOR) ? field.slice(0, field.indexOf(FACET_LEVEL_SEPARATOR)) : undefined;
        if (first !== undefined && Object.hasOwn(FACET_COLUMNS, first)) {
          const value = combo[FACET_COLUMNS[first] as 'entity_type' | 'platform' | 'origin'];
          add(field, value === null ? null : first === '_entityType' ? graphqlType(value) : value, count);
        }
      }
    }
    const termFields = fields.filter((f) => termField(f) !== undefined);
    const byTerm = new Map(termFields.map((f) => [termField(f)!, f]));
    // Nested facets of a column then a facet field (the default `_entityType␞typeNames`): their second level comes from
    // the same scan of the facet rows, grouped by that column too (when they all start with the same column).
    const paired = fields.flatMap((field) => {
      const levels = field.split(FACET_LEVEL_SEPARATOR);
      const term = levels.length === 2 && Object.hasOwn(FACET_COLUMNS, levels[0]!) ? termField(levels[1]!) : undefined;
      return term !== undefined && FACET_TERM_SET.has(term) ? [{ field, column: levels[0]!, term }] : [];
    });
    const scanned = paired.every((p) => p.column === paired[0]!.column) ? paired : [];
    const column = scanned.length ? (FACET_COLUMNS[scanned[0]!.column] as FoundColumn) : undefined;
    if (total > 0)
      // The facet fields' rows from `search_facet`, any other's from `search_term`: one grouped scan per table needed.
      for (const table of ['search_facet', 'search_term'] as const) {
        const nested = table === 'search_facet' ? scanned : [];
        const wanted = [...new Set([...[...byTerm.keys()].filter((field) => facetTable(field) === table), ...nested.map((p) => p.term)])];
        if (wanted.length === 0) continue;
        // The matching documents, as one source or (found once) as the ids of each value of the nested facets' column.
        const sources: { grp?: string | null; documents: string; params: unknown[] }[] = found
          ? [...groupIds(found, nested.length ? column : undefined)].map(([grp, ids]) => ({
              grp,
              documents: `(SELECT ids.value AS id, NULL AS grp FROM ${dialect.idsOf}) m`,
              params: [ids],
            }))
          : [
              {
                documents: `(SELECT d.id, ${nested.length ? `d.${column}` : 'NULL'} AS grp FROM ${match.from} ${match.where}) m`,
                params: match.params,
              },
            ];
        for (const source of sources) {
          // From each matching document to its rows (in that order), grouped by the values' numbers.
          const rows = await db.all<{ grp: string | null; field: string; value: string; count: number }>(
            `SELECT c.grp, v.field, v.value, c.count FROM (
               SELECT m.grp, t.vid, count(*) AS count FROM ${source.documents} ${dialect.joinInOrder} ${table} t ON t.id = m.id GROUP BY m.grp, t.vid
             ) c JOIN search_value v ON v.vid = c.vid WHERE v.field IN (${wanted.map(() => '?').join(', ')})`,
            [...source.params, ...wanted],
          );
          for (const row of rows) {
            const count = Number(row.count);
            const grp = source.grp === undefined ? row.grp : source.grp;
            if (byTerm.has(row.field) && facetTable(row.field) === table) add(byTerm.get(row.field)!, row.value, count);
            for (const p of nested)
              if (p.term === row.field && grp !== null)
                add(p.field, `${p.column === '_entityType' ? graphqlType(grp) : grp}${FACET_LEVEL_SEPARATOR}${row.value}`, count);
          }
        }
      }
    const countedWithTerms = new Set(scanned.map((p) => p.field));
    const others = fields.filter((f) => f.includes(FACET_LEVEL_SEPARATOR) && !countedWithTerms.has(f));
    if (total > 0 && others.length) {
      // Any other nested facet joins the documents level by level: those found once, by id.
      const documents: MatchSet = found
        ? {
            ...match,
            from: `${dialect.idsOf} ${dialect.joinInOrder} search_document d ON d.id = ids.value`,
            where: '',
            params: [groupIds(found, undefined).get(null)],
          }
        : match;
      for (const field of others) await countNested(documents, field, counts.get(field)!);
    }
    return { total, counts };
  }

  /**
   * A nested facet's buckets as DataHub flattens them: each first-level value with its own count, and for every deeper
   * level the path of values joined by the separator (`dataset␞View`), counted over the documents holding that path.
   */
  async function countNested(match: MatchSet, field: string, into: Map<string, number>) {
    const levels = field.split(FACET_LEVEL_SEPARATOR);
    const joins: string[] = [];
    const joinParams: string[] = [];
    const values = levels.map((level, i) => {
      if (Object.hasOwn(FACET_COLUMNS, level)) return `m.${FACET_COLUMNS[level]}`;
      const field = termField(level)!;
      joins.push(`JOIN ${facetTable(field)} t${i} ON t${i}.id = m.id JOIN search_value v${i} ON v${i}.vid = t${i}.vid AND v${i}.field = ?`);
      joinParams.push(field);
      return `v${i}.value`;
    });
    // The first level of a column was counted with the columns (countFacets).
    for (let depth = Object.hasOwn(FACET_COLUMNS, levels[0]!) ? 2 : 1; depth <= levels.length; depth++) {
      const shown = values.slice(0, depth);
      // Only the joins the first `depth` levels need, so a document without a deeper value still counts above it.
      const needed = levels.slice(0, depth).filter((level) => !Object.hasOwn(FACET_COLUMNS, level)).length;
      const rows = await db.all<Record<string, string | number | null>>(
        `SELECT ${shown.map((v, i) => `${v} AS l${i}`).join(', ')}, count(*) AS count
           FROM (SELECT d.id, d.entity_type, d.platform, d.origin FROM ${match.from} ${match.where}) m ${joins.slice(0, needed).join(' ')}
          GROUP BY ${shown.join(', ')}`,
        [...match.params, ...joinParams.slice(0, needed)],
      );
      for (const row of rows) {
        const path = shown.map((_, i) => row[`l${i}`]);
        if (path.some((v) => v === null || v === undefined)) continue;
        const key = path.map((v, i) => (levels[i] === '_entityType' ? graphqlType(String(v)) : String(v))).join(FACET_LEVEL_SEPARATOR);
        into.set(key, (into.get(key) ?? 0) + Number(row.count));
      }
    }
  }

  /**
   * Makes `search_facet` hold the rows of exactly today's facet fields: filled from `search_term` when the fields it
   * was filled for (`search_facet_field`) differ (a store written before the table existed, or a model whose facets
   * changed), in one transaction; otherwise nothing is written.
   */
  async function syncFacetRows() {
    const same = (rows: { field: string }[]) =>
      rows.length === FACET_TERM_FIELDS.length && rows.every((row, i) => row.field === FACET_TERM_FIELDS[i]);
    const read = (tx: SqlExecutor) => tx.all<{ field: string }>('SELECT field FROM search_facet_field ORDER BY field');
    if (same(await read(db))) return;
    await db.transaction(async (tx) => {
      if (same(await read(tx))) return;
      await tx.run('DELETE FROM search_facet');
      await tx.run(
        `INSERT INTO search_facet (id, vid) SELECT t.id, t.vid FROM search_value v JOIN search_term t ON t.vid = v.vid
          WHERE v.field IN (${FACET_TERM_FIELDS.map(() => '?').join(', ')})`,
        FACET_TERM_FIELDS,
      );
      await tx.run('DELETE FROM search_facet_field');
      await writeRows(tx, { table: 'search_facet_field', columns: ['field'], rows: FACET_TERM_FIELDS.map((field) => [field]) });
    });
  }

  /** Rows (document id, vid) of `table` for (id, field, value) triples whose value is in `search_value`. */
  async function insertTerms(
    tx: SqlExecutor,
    table: 'search_term' | 'search_facet',
    terms: readonly (readonly [number, string, string])[],
  ) {
    for (let i = 0; i < terms.length; i += TERM_ROWS_PER_STATEMENT) {
      const chunk = terms.slice(i, i + TERM_ROWS_PER_STATEMENT);
      const triples = chunk.map(() => '(?, ?, ?)').join(', ');
      await tx.run(
        dialect.insertIgnoring(
          `${table} (id, vid)`,
          `SELECT CAST(wanted.column1 AS bigint), v.vid FROM (VALUES ${triples}) AS wanted JOIN search_value v ON ${dialect.sameValue}`,
        ),
        chunk.flat(),
      );
    }
  }

  /** Removes the documents of `urns` that exist, with their terms and text. */
  async function removeDocuments(tx: SqlExecutor, urns: readonly string[]) {
    const ids: number[] = [];
    for (let i = 0; i < urns.length; i += URNS_PER_STATEMENT) {
      const chunk = urns.slice(i, i + URNS_PER_STATEMENT);
      const found = await tx.all<{ id: number }>(`SELECT id FROM search_document WHERE urn IN (${chunk.map(() => '?').join(', ')})`, chunk);
      ids.push(...found.map((row) => Number(row.id)));
    }
    const keys = ids.map((id) => [id]);
    await deleteRows(tx, { table: 'search_term', columns: ['id'] }, keys);
    await deleteRows(tx, { table: 'search_facet', columns: ['id'] }, keys);
    await dialect.removeTexts(tx, ids);
    await deleteRows(tx, { table: 'search_document', columns: ['id'] }, keys);
  }

  return {
    async migrate() {
      await db.migrate({ owner: 'search', folder: MIGRATIONS[db.dialect] });
      await syncFacetRows();
    },

    async put(tx: SqlExecutor, given: SearchDocument | readonly SearchDocument[], options: { fresh?: boolean } = {}) {
      // One document per urn: the last given.
      const all: readonly SearchDocument[] = Array.isArray(given) ? given : [given as SearchDocument];
      if (all.length === 0) return;
      const docs = all.length === 1 ? all : [...new Map(all.map((doc) => [doc.urn, doc])).values()];
      // A document replaced is removed and inserted again, so that any number of them take the same few statements.
      if (!options.fresh)
        await removeDocuments(
          tx,
          docs.map((doc) => doc.urn),
        );
      const ids = await dialect.insertDocuments(tx, docs);
      // In one order everywhere, so that two transactions inserting the same new values never wait for each other in a circle.
      const termsOfDocs = docs.map((doc) => [
        ...TERM_FIELDS.flatMap((field) => [...new Set(doc[field])].map((value) => [field, value] as const)),
        ...doc.fields.flatMap(([field, value]) => (answeredElsewhere(field) ? [] : [[`${MODEL_TERM}${field}`, value] as const])),
      ]);
      const values = [...new Map(termsOfDocs.flat().map((pair) => [`${pair[0]}\u0000${pair[1]}`, pair])).values()].sort(byFieldThenValue);
      await writeRows(tx, { table: 'search_value', columns: ['field', 'value'], rows: values, onConflict: 'ignore' });
      // Statements of their own, so that they see values a concurrent transaction committed while the first waited on
      // them. Joined through the unique index; `(field, value) IN (VALUES …)` scanned the table instead.
      const terms = termsOfDocs.flatMap((pairs, i) => pairs.map(([field, value]) => [ids[i]!, field, value] as const));
      await insertTerms(tx, 'search_term', terms);
      await insertTerms(
        tx,
        'search_facet',
        terms.filter(([, field]) => FACET_TERM_SET.has(field)),
      );
    },

    remove: (tx: SqlExecutor, urn: string) => removeDocuments(tx, [urn]),

    async search(query: SearchQuery): Promise<SearchResult> {
      const match = matchSet(query);
      // Unranked, by urn as DataHub does (its score ties); by name, case aside; urn always breaks ties so pages never overlap.
      const direction = query.sort?.order === 'DESCENDING' ? 'DESC' : 'ASC';
      const rank = match.ranked && !query.sort ? dialect.rank(match.ranked) : undefined;
      const order = query.sort
        ? query.sort.field === 'entityType'
          ? `lower(d.entity_type) ${direction}, lower(d.name), d.urn`
          : `${query.sort.field === 'urn' ? 'd.urn' : 'lower(d.name)'} ${direction}, d.urn`
        : rank
          ? `${rank.sql}, d.urn`
          : 'd.urn';
      const hitColumns = match.ranked ? dialect.hitColumns : '';
      const rows = await db.all<{
        urn: string;
        entity_type: string;
        name: string;
        description: string;
        nameHit?: string;
        descriptionHit?: string;
      }>(
        `SELECT d.urn, d.entity_type, d.name, d.description${hitColumns} FROM ${match.from} ${match.where} ORDER BY ${order} LIMIT ? OFFSET ?`,
        [...match.params, ...(rank?.params ?? []), query.count, query.start],
      );
      // By default mds's facets and types by sub-type (as DataHub's defaults), then those DataHub's model declares for
      // the entity types searched.
      const fields = query.facets ?? [
        ...new Set([
          ...FACET_FIELDS,
          ENTITY_SUB_TYPE_FACET,
          ...modelFacets(query.entityTypes?.flatMap(registryNames) ?? ENTITY_SPECS.map((e) => e.name)),
          ...(query.moreFacets ?? []),
        ]),
      ];
      const { total, counts } = await countFacets(match, fields, fields.length && match.ranked ? await foundOnce(match) : undefined);
      const hits = rows.map((row) => ({
        urn: row.urn,
        entityType: row.entity_type,
        matchedFields: match.ranked ? dialect.matchedFields(row, match.ranked) : [],
      }));
      const facets = fields.map((field) => {
        const counted = [...counts.get(field)!].map(([value, count]) => ({ value, count }));
        counted.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1));
        let values = limitFacetValues(counted, query.maxFacetValues ?? 20).map(({ value, count }) => ({
          value: field === '_entityType' ? graphqlType(value) : value,
          count,
        }));
        if (field === '_entityType' && query.entityTypes?.length) {
          // The types asked for keep their bucket at zero, so a client can show them (entities-api §12.42).
          const missing = [...new Set(query.entityTypes.flatMap(registryNames).map(graphqlType))].filter(
            (t) => !values.some((v) => v.value === t),
          );
          values = [...values, ...missing.map((value) => ({ value, count: 0 }))];
        }
        return {
          field,
          displayName: (FACET_NAMES as Record<string, string>)[field] ?? MODEL_FIELDS.get(field)?.facetName ?? field,
          values,
        };
      });
      return { total, hits, facets };
    },

    async list(entityType, start, count, includeSoftDeleted = false) {
      const removed = includeSoftDeleted ? '' : ' AND removed = 0';
      const rows = await db.all<{ urn: string }>(
        `SELECT urn FROM search_document WHERE entity_type = ?${removed} ORDER BY urn LIMIT ? OFFSET ?`,
        [registryNames(entityType)[0]!, count, start],
      );
      const { total } = (await db.get<{ total: number }>(`SELECT count(*) AS total FROM search_document WHERE entity_type = ?${removed}`, [
        registryNames(entityType)[0]!,
      ]))!;
      return { entities: rows.map((r) => r.urn), start, count: rows.length, total: Number(total) };
    },

    async autocomplete(entityType, query, limit, options = {}) {
      const words = queryWords(query);
      if (typeof words !== 'object') return { query, suggestions: [], entities: [] };
      const [matches, rank] = [dialect.matches(words, true), dialect.rank(words)];
      const filtered = filtersSql(options.filters);
      const rows = await db.all<{ urn: string; name: string }>(
        `SELECT d.urn, d.name FROM ${dialect.textFrom} WHERE ${matches.sql} AND d.entity_type = ? AND d.removed = 0${filtered ? ` AND ${filtered.sql}` : ''} ORDER BY ${rank.sql}, d.name LIMIT ?`,
        [...matches.params, registryNames(entityType)[0]!, ...(filtered?.params ?? []), ...rank.params, limit],
      );
      return { query, suggestions: [...new Set(rows.map((r) => r.name))], entities: rows.map((r) => ({ urn: r.urn })) };
    },

    async browse(entityType, path, start, limit, options = {}): Promise<BrowseResult> {
      const base = path === '/' ? '' : path.replace(/\/+$/, '');
      const filtered = filtersSql(options.filters);
      const rows = await db.all<{ urn: string; name: string; value: string }>(
        `SELECT d.urn, d.name, v.value FROM search_value v JOIN search_term t ON t.vid = v.vid JOIN search_document d ON d.id = t.id
         WHERE v.field = 'browsePaths' AND d.entity_type = ? AND d.removed = 0 AND (v.value = ? OR substr(v.value, 1, length(?)) = ?)${filtered ? ` AND ${filtered.sql}` : ''}`,
        [registryNames(entityType)[0]!, base || '/', `${base}/`, `${base}/`, ...(filtered?.params ?? [])],
      );
      // An entity counts once in a group, however many of its paths lead into it.
      const groups = new Map<string, Set<string>>();
      const entities = new Map<string, { name: string; urn: string }>();
      for (const row of rows) {
        const rest = row.value.slice(base.length).replace(/^\/+/, '');
        if (rest === '') entities.set(row.urn, { name: row.name, urn: row.urn });
        else {
          const group = rest.split('/')[0]!;
          groups.set(group, (groups.get(group) ?? new Set()).add(row.urn));
        }
      }
      const page = [...entities.values()].sort((a, b) => a.name.localeCompare(b.name)).slice(start, start + limit);
      return {
        entities: page,
        groups: [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([name, urns]) => ({ name, count: urns.size })),
        metadata: { path: path || '/', totalNumEntities: new Set(rows.map((r) => r.urn)).size },
        from: start,
        pageSize: limit,
        numEntities: entities.size,
        numGroups: groups.size,
        numElements: entities.size + groups.size,
      };
    },
  };
}
