import { findEntity, pageOf } from '@mds/core';
import { SearchQueryError, type Criterion, type SearchIndex, type SearchQuery } from '@mds/search';
import { badRequest, type AndFilterInput, type ApiContext, type FacetFilterInput, type SearchFlags, type SortCriterion } from '@mds/schema';
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
}

/**
 * The one search of the GraphQL face: a page of entities (each answered through its type's face, batched per
 * request), their matched fields, and facets, from the search index (entities-api §9.3).
 */
export function createEntitySearch(search: SearchIndex, searchable: readonly string[], loaders: (context: ApiContext) => RequestLoaders) {
  return async (request: EntitySearch, context: ApiContext) => {
    const page = pageOf(request.start, request.count);
    if ('violation' in page) throw badRequest(page.violation);
    const types = request.types?.length ? request.types.filter((type) => searchable.includes(type)) : searchable;
    if (types.length === 0) return { start: page.start, count: 0, total: 0, searchResults: [], facets: [] };
    const listing = request.query.trim() === '' || request.query.trim() === '*';
    const flags = request.searchFlags ?? {};
    const groups = filterGroups(request);
    const scoped = request.scope?.length ? (groups.length ? groups : [[]]).map((group) => [...request.scope!, ...group]) : groups;
    let found;
    try {
      found = await search.search({
        entityTypes: [...types],
        input: request.query,
        filters: scoped,
        start: page.start,
        count: page.count,
        includeSoftDeleted: flags.includeSoftDeleted ?? false,
        facets: flags.skipAggregates ? [] : undefined,
        maxFacetValues: flags.maxAggValues ?? undefined,
        sort: sortOf(request.sortCriteria ?? []) ?? (listing ? { field: 'name', order: 'ASCENDING' } : undefined),
      });
    } catch (error) {
      // An unknown field or an unsupported condition: the caller's 400, in the index's words.
      if (error instanceof SearchQueryError) throw badRequest(error.message);
      throw error;
    }
    const answered = await Promise.all(
      found.hits.map((hit) => loaders(context).entity(findEntity(hit.entityType)?.graphqlType ?? '', hit.urn)),
    );
    const searchResults = found.hits.flatMap((hit, i) => (answered[i] ? [{ entity: answered[i], matchedFields: hit.matchedFields }] : []));
    const facets = found.facets.map((facet) => ({
      field: facet.field,
      displayName: facet.displayName,
      aggregations: facet.values.map(({ value, count }) => ({ value, count })),
    }));
    return { start: page.start, count: searchResults.length, total: found.total, searchResults, facets };
  };
}

export type EntitySearcher = ReturnType<typeof createEntitySearch>;

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

/** The first sort criterion, as the index can sort. */
function sortOf(criteria: readonly SortCriterion[]): SearchQuery['sort'] {
  const [first] = criteria;
  return first && indexSort(first.field, first.sortOrder);
}
