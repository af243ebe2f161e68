import { pageOrRefuse } from './common-fields';
import { findEntity, isJsonObject, MAX_PAGE_SIZE, parseEntityUrn, parseUrn, UrnError } from '@mds/core';
import {
  isFacetField,
  SearchQueryError,
  STRUCTURED_PROPERTY_FIELD_PREFIX,
  type Criterion,
  type SearchIndex,
  type SearchQuery,
} from '@mds/search';
import {
  badRequest,
  type AndFilterInput,
  type ApiContext,
  type FacetFilterInput,
  type ScrollAcrossEntitiesInput,
  type SearchFlags,
  type SortCriterion,
} from '@mds/schema';
import { Kind, type GraphQLResolveInfo } from 'graphql';
import { indexSort } from '../model/search-sort';
import type { RequestLoaders } from './request-loaders';

/** What every GraphQL search asks (searchAcrossEntities, search, a container's or domain's entities, browseV2). */
export interface EntitySearch {
  /** GraphQL entity types; absent or empty: every searchable type. */
  types?: readonly string[] | null;
  query: string;
  start?: number | null;
  count?: number | null;
  filters?: readonly FacetFilterInput[] | null;
  orFilters?: readonly AndFilterInput[] | null;
  /** Criteria every hit must also match, whatever the caller's filters (a container's entities: its urn). */
  scope?: readonly Criterion[];
  searchFlags?: SearchFlags | null;
  sortCriteria?: readonly SortCriterion[] | null;
  /** A stored view (`dataHubView`): its filter is ANDed in, its entity types narrow `types`. */
  viewUrn?: string | null;
  /** Facets to count (aggregateAcrossEntities); absent or empty: the index's defaults. */
  facets?: readonly (string | null | undefined)[] | null;
}

/** The relationship along which DataHub expands `domains` and `container` filters of the *_INCL conditions. */
const PART_OF = 'IsPartOf';
/** How many urns an *_INCL expansion adds at most (DataHub's expansion limit). */
const EXPANSION_LIMIT = 100;
/** Fields whose values *_INCL conditions expand along IsPartOf; on other fields those conditions compare as EQUAL. */
const HIERARCHICAL = new Set(['domains', 'container']);
/** Sort fields of DataHub's that name something else in the index. */
const SORT_FIELDS: Readonly<Record<string, string>> = { _entityName: 'name', _index: 'entityType' };

/**
 * The one search of the GraphQL face: a page of entities (each answered through its type's face, batched per
 * request), their matched fields, facets and suggestions, from the search index (entities-api §9.3). `searchPage`
 * answers searchAcrossEntities' shape; `facetsOnly` aggregateAcrossEntities'; `scroll` scrollAcrossEntities'.
 */
export function createEntitySearch(search: SearchIndex, searchable: readonly string[], loaders: (context: ApiContext) => RequestLoaders) {
  /** The types and filter groups of a request once its view (if any) is applied, and its hierarchies expanded. */
  async function narrowed(request: EntitySearch, context: ApiContext) {
    let types = request.types?.length ? request.types.filter((type) => searchable.includes(type)) : searchable;
    let groups = filterGroups(request);
    if (request.viewUrn) {
      const view = await viewDefinition(request.viewUrn, loaders(context));
      if (view) {
        if (view.types.length) types = types.filter((type) => view.types.includes(type));
        groups = conjunction(groups, view.groups);
      }
    }
    if (request.scope?.length) groups = (groups.length ? groups : [[]]).map((group) => [...request.scope!, ...group]);
    return { types, groups: await expandHierarchies(groups, loaders(context)) };
  }

  /** One query to the index, its refusals the caller's 400. */
  async function ask(query: SearchQuery) {
    try {
      return await search.search(query);
    } catch (error) {
      // An unknown field or an unsupported condition: the caller's 400, in the index's words.
      if (error instanceof SearchQueryError) throw badRequest(error.message);
      throw error;
    }
  }

  /** The hits of a page answered through their types' faces, with their matched fields (none when not asked). */
  async function results(found: Awaited<ReturnType<SearchIndex['search']>>, flags: SearchFlags, context: ApiContext) {
    const answered = await Promise.all(
      found.hits.map((hit) => loaders(context).entity(findEntity(hit.entityType)?.graphqlType ?? '', hit.urn)),
    );
    return found.hits.flatMap((hit, i) =>
      answered[i]
        ? [
            {
              entity: answered[i],
              matchedFields: flags.skipHighlighting ? [] : hit.matchedFields,
              // The index gives neither insights nor extra fields: DataHub's mapper answers an empty list for those.
              insights: [],
              extraProperties: [],
            },
          ]
        : [],
    );
  }

  const facetsOf = (found: Awaited<ReturnType<SearchIndex['search']>>) =>
    found.facets.map((facet) => ({
      field: facet.field,
      displayName: facet.displayName,
      aggregations: facet.values.map(({ value, count }) => ({ value, count })),
    }));

  /**
   * The facets of the structured properties shown in search filters (`showInSearchFilters`), at most 100, as DataHub's
   * searchAcrossEntities adds them when `includeStructuredPropertyFacets` is set.
   */
  async function structuredPropertyFacets(): Promise<string[]> {
    const shown = await ask({
      entityTypes: ['structuredProperty'],
      input: '*',
      filters: [[{ field: 'showInSearchFilters', values: ['true'] }]],
      start: 0,
      count: 100,
      facets: [],
    });
    return shown.hits.map((hit) => `${STRUCTURED_PROPERTY_FIELD_PREFIX}${parseUrn(hit.urn).parts[0]}`);
  }

  /** A search of one page: `page` from start/count or a scroll position. */
  async function run(request: EntitySearch, context: ApiContext, page: { start: number; count: number }) {
    const flags = request.searchFlags ?? {};
    const maxAggValues = flags.maxAggValues ?? undefined;
    if (maxAggValues !== undefined && (!Number.isSafeInteger(maxAggValues) || maxAggValues < 0 || maxAggValues > MAX_PAGE_SIZE))
      throw badRequest(`'maxAggValues' must be an integer from 0 to ${MAX_PAGE_SIZE}`);
    const facets = askedFacets(request.facets);
    const sort = sortOf(request.sortCriteria ?? []);
    const { types, groups } = await narrowed(request, context);
    if (types.length === 0) return undefined;
    const moreFacets = flags.includeStructuredPropertyFacets && !flags.skipAggregates ? await structuredPropertyFacets() : undefined;
    const listing = request.query.trim() === '' || request.query.trim() === '*';
    const found = await ask({
      entityTypes: [...types],
      input: request.query,
      filters: groups,
      start: page.start,
      count: page.count,
      includeSoftDeleted: flags.includeSoftDeleted ?? false,
      facets: flags.skipAggregates ? [] : facets,
      moreFacets,
      maxFacetValues: maxAggValues,
      sort: sort ?? (listing ? { field: 'name', order: 'ASCENDING' } : undefined),
    });
    return { found, flags, types, listing };
  }

  /** searchAcrossEntities: a page of results, facets, and suggestions when asked for and nothing was found. */
  async function searchPage(request: EntitySearch, context: ApiContext) {
    const page = pageOrRefuse(request.start, request.count);
    const ran = await run(request, context, page);
    if (!ran) return { start: page.start, count: 0, total: 0, searchResults: [], facets: [], suggestions: [] };
    const searchResults = await results(ran.found, ran.flags, context);
    const suggestions = ran.flags.getSuggestions && ran.found.total === 0 && !ran.listing ? await suggest(request.query, ran.types) : [];
    return {
      start: page.start,
      count: searchResults.length,
      total: ran.found.total,
      searchResults,
      facets: facetsOf(ran.found),
      suggestions,
    };
  }

  /** aggregateAcrossEntities: the facets alone (no page of hits is read). */
  async function facetsOnly(request: EntitySearch, context: ApiContext) {
    const ran = await run(request, context, { start: 0, count: 0 });
    return { facets: ran ? facetsOf(ran.found) : [] };
  }

  /** scrollAcrossEntities: the page after `scrollId`, and the id of the one after it (null on the last). */
  async function scroll(request: EntitySearch & { scrollId?: string | null }, context: ApiContext) {
    const start = request.scrollId ? scrollPosition(request.scrollId) : 0;
    const page = pageOrRefuse(start, request.count);
    const ran = await run(request, context, page);
    if (!ran) return { nextScrollId: null, count: 0, total: 0, searchResults: [], facets: [] };
    const searchResults = await results(ran.found, ran.flags, context);
    const next = page.start + ran.found.hits.length;
    return {
      nextScrollId: ran.found.hits.length > 0 && next < ran.found.total ? scrollIdOf(next) : null,
      count: searchResults.length,
      total: ran.found.total,
      searchResults,
      facets: facetsOf(ran.found),
    };
  }

  /**
   * Names close to a query that found nothing (DataHub's term suggester on entity names): names of the types searched
   * that share the query's first letters, within an edit distance of a third of the query's length.
   */
  async function suggest(query: string, types: readonly string[]) {
    const wanted = query.trim().toLowerCase();
    if (wanted.length < 3) return [];
    const names = new Map<string, number>();
    for (const type of types) {
      const near = await search.autocomplete(type, wanted.slice(0, 2), 50);
      for (const name of near.suggestions) names.set(name, (names.get(name) ?? 0) + 1);
    }
    const bound = Math.max(1, Math.floor(wanted.length / 3));
    return [...names]
      .map(([text, frequency]) => ({ text, frequency, distance: editDistance(wanted, text.toLowerCase()) }))
      .filter((s) => s.distance <= bound)
      .sort((a, b) => a.distance - b.distance || b.frequency - a.frequency || (a.text < b.text ? -1 : 1))
      .slice(0, 5)
      .map(({ text, frequency, distance }) => ({ text, frequency, score: 1 - distance / Math.max(wanted.length, text.length) }));
  }

  return Object.assign((request: EntitySearch, context: ApiContext) => searchPage(request, context), {
    facetsOnly,
    scroll,
    /** The types and filter groups of a request after its view: what autocomplete and browse search within. */
    narrowed,
  });
}

export type EntitySearcher = ReturnType<typeof createEntitySearch>;

/**
 * A field of an entity answering DataHub's scroll searches scoped to it (SiblingsSearchResolver,
 * GlossaryChildrenSearchResolver): the one scroll search over the input's types, query, orFilters, view, flags, count
 * and scroll id, every hit also matching `field` = the entity's urn. No sort: DataHub's resolvers pass none.
 * Where the selection plainly leaves `facets` out (the UI's `siblingsSearch { count total searchResults }`, once per
 * dataset of a search page), nothing is counted for them: counting them was most of such a field's cost.
 */
export const scopedScroll =
  (searchEntities: EntitySearcher, field: string) =>
  (
    parent: { urn: string },
    { input }: { input: ScrollAcrossEntitiesInput },
    context: ApiContext,
    info?: Pick<GraphQLResolveInfo, 'fieldNodes'>,
  ) =>
    searchEntities.scroll(
      {
        types: input.types,
        query: input.query,
        orFilters: input.orFilters,
        viewUrn: input.viewUrn,
        searchFlags: info && !mayAskFacets(info) ? { ...input.searchFlags, skipAggregates: true } : input.searchFlags,
        count: input.count,
        scrollId: input.scrollId,
        scope: [{ field, values: [parent.urn] }],
      },
      context,
    );

/** Whether a field's selection may include `facets`: it names it, or it has fragments (not looked into). */
const mayAskFacets = (info: Pick<GraphQLResolveInfo, 'fieldNodes'>) =>
  info.fieldNodes.some((node) =>
    (node.selectionSet?.selections ?? []).some((selection) => selection.kind !== Kind.FIELD || selection.name.value === 'facets'),
  );

/** `orFilters`, or else the deprecated `filters` as one and-group (entities-api §9.3). */
export function filterGroups(request: Pick<EntitySearch, 'filters' | 'orFilters'>): Criterion[][] {
  const criterion = (f: FacetFilterInput): Criterion => ({
    field: f.field,
    values: f.values ?? undefined,
    value: f.value ?? undefined,
    condition: f.condition ?? undefined,
    negated: f.negated ?? false,
  });
  const ored = (request.orFilters ?? []).map((group) => (group.and ?? []).map(criterion)).filter((group) => group.length > 0);
  if (ored.length) return ored;
  return request.filters?.length ? [request.filters.map(criterion)] : [];
}

/** The criteria of a sort input: `sortCriteria`, else the one `sortCriterion` (DataHub's order of preference). */
export function sortCriteriaOf(
  sortInput: { sortCriteria?: readonly SortCriterion[] | null; sortCriterion?: SortCriterion | null } | null | undefined,
) {
  return sortInput?.sortCriteria ?? (sortInput?.sortCriterion ? [sortInput.sortCriterion] : []);
}

/** Two or-of-and filters ANDed: every pair of groups joined (either empty: the other), as DataHub combines a view's. */
function conjunction(a: Criterion[][], b: Criterion[][]): Criterion[][] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  return a.flatMap((left) => b.map((right) => [...left, ...right]));
}

/** The stored view's entity types (as GraphQL types) and filter, or undefined when no view of that urn is stored. */
async function viewDefinition(viewUrn: string, loaders: RequestLoaders) {
  try {
    parseEntityUrn(viewUrn);
  } catch (error) {
    if (error instanceof UrnError) throw badRequest(`Invalid urn: ${viewUrn}`);
    throw error;
  }
  const info = (await loaders.reader.latest([viewUrn], ['dataHubViewInfo'])).get(viewUrn)?.get('dataHubViewInfo')?.value;
  const definition = isJsonObject(info) && isJsonObject(info.definition) ? info.definition : undefined;
  // DataHub goes on without a view it cannot find.
  if (!definition) return undefined;
  const types = (Array.isArray(definition.entityTypes) ? definition.entityTypes : []).flatMap((name) => {
    const type = typeof name === 'string' ? findEntity(name)?.graphqlType : undefined;
    return type ? [type] : [];
  });
  return { types, groups: storedFilter(definition.filter) };
}

/** A stored `Filter` (its `or` of `and`s, or the older flat `criteria`) as filter groups. */
function storedFilter(filter: unknown): Criterion[][] {
  if (!isJsonObject(filter)) return [];
  const criterion = (c: unknown): Criterion[] => {
    if (!isJsonObject(c) || typeof c.field !== 'string') return [];
    const values = Array.isArray(c.values) ? c.values.filter((v): v is string => typeof v === 'string') : [];
    return [
      {
        field: c.field,
        values: values.length ? values : typeof c.value === 'string' && c.value !== '' ? [c.value] : [],
        condition: typeof c.condition === 'string' ? c.condition : undefined,
        negated: c.negated === true,
      },
    ];
  };
  if (Array.isArray(filter.or))
    return filter.or
      .map((group) => (isJsonObject(group) && Array.isArray(group.and) ? group.and.flatMap(criterion) : []))
      .filter((g) => g.length);
  const flat = Array.isArray(filter.criteria) ? filter.criteria.flatMap(criterion) : [];
  return flat.length ? [flat] : [];
}

/**
 * DESCENDANTS_INCL, ANCESTORS_INCL and RELATED_INCL as DataHub's filter rewriters give them: on `domains` and
 * `container` the values with the urns below (IsPartOf pointing at them), above, or both, up to EXPANSION_LIMIT urns,
 * compared as EQUAL; on other fields they compare as EQUAL.
 */
async function expandHierarchies(groups: Criterion[][], loaders: RequestLoaders): Promise<Criterion[][]> {
  const inclusive = (c: Criterion) => ['DESCENDANTS_INCL', 'ANCESTORS_INCL', 'RELATED_INCL'].includes((c.condition ?? '').toUpperCase());
  if (!groups.some((group) => group.some(inclusive))) return groups;
  const walk = async (from: readonly string[], direction: 'INCOMING' | 'OUTGOING') => {
    const seen = new Set(from);
    let frontier = [...from];
    while (frontier.length && seen.size < from.length + EXPANSION_LIMIT) {
      const next: string[] = [];
      for (const urn of frontier) {
        const { relationships } = await loaders.reader.relationships(urn, {
          direction,
          types: [PART_OF],
          start: 0,
          count: EXPANSION_LIMIT,
        });
        for (const { entity } of relationships)
          if (!seen.has(entity) && seen.size < from.length + EXPANSION_LIMIT) {
            seen.add(entity);
            next.push(entity);
          }
      }
      frontier = next;
    }
    return [...seen];
  };
  return Promise.all(
    groups.map((group) =>
      Promise.all(
        group.map(async (c) => {
          if (!inclusive(c)) return c;
          const values = c.values?.length ? [...c.values] : c.value !== undefined ? [c.value] : [];
          const condition = c.condition!.toUpperCase();
          let expanded = values;
          if (HIERARCHICAL.has(c.field)) {
            const below = condition === 'ANCESTORS_INCL' ? [] : await walk(values, 'INCOMING');
            const above = condition === 'DESCENDANTS_INCL' ? [] : await walk(values, 'OUTGOING');
            expanded = [...new Set([...values, ...below, ...above])];
          }
          return { ...c, values: expanded, value: undefined, condition: 'EQUAL' };
        }),
      ),
    ),
  );
}

/** The facets asked for by name: each one the index can count, or the caller's 400 naming it. */
function askedFacets(facets: EntitySearch['facets']): string[] | undefined {
  const named = (facets ?? []).filter((f): f is string => typeof f === 'string');
  if (named.length === 0) return undefined;
  const unknown = named.filter((f) => !isFacetField(f));
  if (unknown.length)
    throw badRequest(
      `Unknown facet ${unknown.join(', ')}: facets are _entityType, platform, origin, tags, owners, domains, glossaryTerms, container, typeNames, the searchable fields of DataHub's model, structuredProperties.<id>, or levels of those joined by ␞ (_entityType␞typeNames)`,
    );
  return [...new Set(named)];
}

/** The first sort criterion the index can sort by, DataHub's names (`_entityName`, `_index`) understood. */
function sortOf(criteria: readonly SortCriterion[]): SearchQuery['sort'] {
  const [first] = criteria;
  if (!first) return undefined;
  const field = SORT_FIELDS[first.field] ?? first.field;
  return field === 'entityType' ? { field, order: first.sortOrder } : indexSort(field, first.sortOrder);
}

/** A scroll id: the position of the next page, opaque to clients. */
const SCROLL_PREFIX = 'mds-scroll:';
export const scrollIdOf = (start: number) => Buffer.from(`${SCROLL_PREFIX}${start}`).toString('base64url');
function scrollPosition(scrollId: string): number {
  const text = /^[A-Za-z0-9_-]+$/.test(scrollId) ? Buffer.from(scrollId, 'base64url').toString() : '';
  const start =
    text.startsWith(SCROLL_PREFIX) && /^\d{1,15}$/.test(text.slice(SCROLL_PREFIX.length)) ? Number(text.slice(SCROLL_PREFIX.length)) : NaN;
  if (!Number.isSafeInteger(start)) throw badRequest(`Invalid scrollId: ${scrollId} is not a nextScrollId of scrollAcrossEntities`);
  return start;
}

/** Levenshtein distance, two rows at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
