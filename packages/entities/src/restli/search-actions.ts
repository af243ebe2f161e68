import { findEntity } from '@mds/core';
import { SearchQueryError, type Criterion, type SearchIndex, type SearchQuery, type SearchResult } from '@mds/search';
import { badRequest, defineAction, type RestliAction } from '@mds/schema';
import { z } from 'zod';
import { indexSort } from '../model/search-sort';

const criterion = z.object({
  field: z.string(),
  value: z.string().optional(),
  values: z.array(z.string()).optional(),
  condition: z.string().optional(),
  negated: z.boolean().optional(),
});
/** Rest.li's Filter: `{or: [{and: [Criterion]}]}`, or the legacy `{criteria: [Criterion]}` (one and-group). */
const filter = z
  .object({ or: z.array(z.object({ and: z.array(criterion) })).optional(), criteria: z.array(criterion).optional() })
  .optional()
  .nullable();
const searchFlags = z
  .object({
    includeSoftDeleted: z.boolean().optional(),
    skipAggregates: z.boolean().optional(),
    maxAggValues: z.number().int().positive().optional(),
  })
  .passthrough()
  .optional()
  .nullable();
const sortCriterion = z.object({ field: z.string(), order: z.enum(['ASCENDING', 'DESCENDING']).optional() });
/** DataHub's two sort parameters: `sort`, one criterion, and `sortCriteria`, a list of them (taking precedence). */
const sorting = { sort: sortCriterion.optional().nullable(), sortCriteria: z.array(sortCriterion).optional().nullable() };
type Sorting = { sort?: z.infer<typeof sortCriterion> | null; sortCriteria?: z.infer<typeof sortCriterion>[] | null };
/** What the search actions share of their parameters. */
interface SearchParams extends Sorting {
  input: string;
  filter?: z.infer<typeof filter>;
  start: number;
  count: number;
  searchFlags?: z.infer<typeof searchFlags>;
}
const page = { start: z.number().int().min(0), count: z.number().int().min(0).max(10_000) };

const filterGroups = (value: z.infer<typeof filter>): Criterion[][] => [
  ...(value?.or ?? []).map((group) => group.and),
  ...(value?.criteria?.length ? [value.criteria] : []),
];

/** A registry entity name from a request, or the 400 naming it. */
function entityName(name: string): string {
  const entity = findEntity(name);
  if (!entity) throw badRequest(`Unknown entity: ${name}`);
  return entity.name;
}

/** The index's sort: the first of `sortCriteria`, else `sort` (the index sorts by one field: later criteria are not honoured). */
const sortOf = ({ sort, sortCriteria }: Sorting): SearchQuery['sort'] => {
  const criterion = sortCriteria?.[0] ?? sort ?? undefined;
  return criterion && indexSort(criterion.field, criterion.order);
};

/** The index's SearchQueryError (unknown field, unsupported condition) is the caller's 400. */
async function asked<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SearchQueryError) throw badRequest(error.message);
    throw error;
  }
}

/** DataHub's SearchResult (entities-api §7.4). */
function searchResult(result: SearchResult, query: SearchQuery) {
  const active = new Map<string, Set<string>>();
  for (const c of (query.filters ?? []).flat()) {
    const values = active.get(c.field) ?? new Set<string>();
    for (const v of c.values ?? (c.value === undefined ? [] : [c.value])) values.add(v);
    active.set(c.field, values);
  }
  return {
    entities: result.hits.map((hit) => ({ entity: hit.urn, matchedFields: hit.matchedFields })),
    metadata: {
      aggregations: result.facets.map((facet) => ({
        name: facet.field,
        displayName: facet.displayName,
        aggregations: Object.fromEntries(facet.values.map((v) => [v.value, v.count])),
        filterValues: facet.values.map((v) => ({
          value: v.value,
          facetCount: v.count,
          filtered: active.get(facet.field)?.has(v.value) ?? false,
        })),
      })),
      suggestions: [],
    },
    from: query.start,
    pageSize: query.count,
    numEntities: result.total,
  };
}

/** `/entities?action=search|searchAcrossEntities|list|autocomplete|browse` over the search index; any authenticated user. */
export function searchActions(index: SearchIndex): RestliAction[] {
  const run = (query: SearchQuery) => asked(async () => searchResult(await index.search(query), query));
  /** The index query of a search action's parameters, over `entityTypes` (undefined: every type). */
  const queryOf = (p: SearchParams, entityTypes: string[] | undefined): SearchQuery => ({
    entityTypes,
    input: p.input,
    filters: filterGroups(p.filter),
    start: p.start,
    count: p.count,
    sort: sortOf(p),
    includeSoftDeleted: p.searchFlags?.includeSoftDeleted ?? false,
    facets: p.searchFlags?.skipAggregates ? [] : undefined,
    maxFacetValues: p.searchFlags?.maxAggValues,
  });
  return [
    defineAction({
      resource: 'entities',
      name: 'search',
      params: z
        .object({
          entity: z.string(),
          input: z.string(),
          filter,
          ...sorting,
          ...page,
          fulltext: z.boolean().optional().nullable(),
          searchFlags,
        })
        .strict(),
      handler: (p) => run(queryOf(p, [entityName(p.entity)])),
    }),
    defineAction({
      resource: 'entities',
      name: 'searchAcrossEntities',
      params: z
        .object({
          entities: z.array(z.string()).optional().nullable(),
          input: z.string(),
          filter,
          ...sorting,
          ...page,
          searchFlags,
        })
        .strict(),
      handler: (p) => run(queryOf(p, p.entities?.length ? p.entities.map(entityName) : undefined)),
    }),
    defineAction({
      resource: 'entities',
      name: 'list',
      params: z.object({ entity: z.string(), filter, ...sorting, ...page }).strict(),
      async handler(p) {
        const groups = filterGroups(p.filter);
        const sort = sortOf(p);
        if (groups.length === 0 && !sort) return index.list(entityName(p.entity), p.start, p.count, false);
        const found = await asked(() =>
          index.search({
            entityTypes: [entityName(p.entity)],
            input: '*',
            filters: groups,
            start: p.start,
            count: p.count,
            sort: sort ?? { field: 'urn', order: 'ASCENDING' },
            facets: [],
            includeSoftDeleted: false,
          }),
        );
        return { entities: found.hits.map((h) => h.urn), start: p.start, count: found.hits.length, total: found.total };
      },
    }),
    defineAction({
      resource: 'entities',
      name: 'autocomplete',
      params: z
        .object({
          entity: z.string(),
          query: z.string(),
          field: z.string().optional().nullable(),
          filter,
          limit: z.number().int().min(1).max(1_000),
          searchFlags,
        })
        .strict(),
      handler: (p) => index.autocomplete(entityName(p.entity), p.query, p.limit),
    }),
    defineAction({
      resource: 'entities',
      name: 'browse',
      params: z
        .object({
          entity: z.string(),
          path: z.string(),
          filter,
          start: z.number().int().min(0),
          limit: z.number().int().min(0).max(10_000),
          searchFlags,
        })
        .strict(),
      handler: (p) => index.browse(entityName(p.entity), p.path, p.start, p.limit),
    }),
  ];
}
