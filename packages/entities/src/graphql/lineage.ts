import { findEntityOfUrn, isJsonObject } from '@mds/core';
import { SearchQueryError, type Criterion, type SearchIndex } from '@mds/search';
import { badRequest, type AndFilterInput, type ApiContext, type FacetFilterInput, type Resolvers, type SearchFlags } from '@mds/schema';
import type { GraphQLResolveInfo } from 'graphql';
import type { LineageDirection } from '../model/lineage';
import { readUrnParameter } from '../service';
import { pageOrRefuse, selects, urnOf, type Loaders, type Parent } from './common-fields';
import { entityOfUrn } from './catalog';
import { filterGroups } from './search';

/** DataHub's bounds of a lineage search (`impact.maxHops`, `impact.maxRelations`): hops followed, (entity, hop) pairs explored. */
export const MAX_HOPS = 1000;
export const MAX_RELATIONS = 40_000;
/** The largest page of a lineage search (the UI asks 2,000 at once for its counts). */
const MAX_LINEAGE_PAGE = 10_000;
/** The urns one question to the search index names. */
const URNS_PER_SEARCH = 500;
/** Every edge of one entity fits in one read; paging is applied to what it answers. */
const ALL_EDGES = 10_000;
const DEGREE = 'degree';
const DEGREE_VALUES = ['1', '2', '3+'] as const;

interface LineageFlagsInput {
  startTimeMillis?: number | null;
  endTimeMillis?: number | null;
}
interface LineageSearchInput {
  urn?: string | null;
  direction: LineageDirection;
  types?: readonly string[] | null;
  query?: string | null;
  filters?: readonly FacetFilterInput[] | null;
  orFilters?: readonly AndFilterInput[] | null;
  startTimeMillis?: number | null;
  endTimeMillis?: number | null;
  searchFlags?: SearchFlags | null;
  lineageFlags?: LineageFlagsInput | null;
}

/**
 * The time window of a lineage read, as DataHub's resolvers read it: the window's start, and its end (now when only
 * the start is given); no window unless both are known.
 */
function windowOf(start: number | null | undefined, end: number | null | undefined, now: number) {
  if (start === null || start === undefined) return undefined;
  return { start, end: end ?? now };
}

/** The degree filter's values ("1", "2", "3+") and the hops they need (DataHub's `getMaxHops`); a value else is a 400. */
function degreeFilter(groups: readonly (readonly FacetFilterInput[])[]) {
  const values = new Set(
    groups.flat().flatMap((f) => (f.field === DEGREE ? (f.values?.length ? f.values : f.value ? [f.value] : []) : [])),
  );
  for (const value of values) {
    if (!(DEGREE_VALUES as readonly string[]).includes(value)) throw badRequest(`${value} is not a valid filter value for degree filters`);
  }
  const maxHops = values.has('3+') || values.size === 0 ? undefined : values.has('2') ? 2 : 1;
  const accepts = (degree: number) => values.size === 0 || [...values].some((v) => (v === '3+' ? degree > 2 : degree === Number(v)));
  return { maxHops, accepts };
}

const degreeBucket = (degree: number) => (degree > 2 ? '3+' : String(degree));

/**
 * Lineage as DataHub's GraphQL answers it: `searchAcrossLineage` and `scrollAcrossLineage` over the store's bounded
 * walk (model/lineage.ts says which edges; the search index narrows by query, types and filters and counts facets),
 * and the `lineage` field of entities (`relationships` of every type: catalog.ts; column-level lineage is the
 * `FineGrainedLineage` rule of common.ts). Reads go through the request's
 * loaders (the entity service under the caller's rule).
 */
export function lineageResolvers(options: {
  loaders: Loaders;
  search: SearchIndex;
  searchable: readonly string[];
  now: () => number;
}): Resolvers {
  const { loaders, search, searchable, now } = options;

  /** The entity of a urn: through its type's face, else what its urn says; null for a type without a face. */
  // A type with no face of its own (the ML types) answers what its urn says; its fields resolve through its mapping.
  const entityAt = entityOfUrn(loaders);

  /** The walk, narrowed as the input says: every result (ordered by degree, then urn), the facets, and the degree counts. */
  async function lineageSearch(input: LineageSearchInput, context: ApiContext) {
    if (!input.urn) throw badRequest("'urn' is required");
    readUrnParameter(input.urn);
    const groups = filterGroups(input);
    const filterInputs: FacetFilterInput[][] = input.orFilters?.length
      ? input.orFilters.map((g) => [...(g.and ?? [])])
      : input.filters?.length
        ? [[...input.filters]]
        : [];
    const degree = degreeFilter(filterInputs);
    const others = groups.map((group) => group.filter((c) => c.field !== DEGREE)).filter((group) => group.length > 0);
    const flags = input.searchFlags ?? {};
    const lineageFlags = input.lineageFlags ?? {};
    const between = windowOf(
      lineageFlags.startTimeMillis ?? input.startTimeMillis,
      lineageFlags.endTimeMillis ?? input.endTimeMillis ?? ((lineageFlags.startTimeMillis ?? input.startTimeMillis) ? now() : undefined),
      now(),
    );
    const walked = await loaders(context).reader.lineage(input.urn, input.direction, {
      maxHops: Math.min(MAX_HOPS, degree.maxHops ?? MAX_HOPS),
      maxRows: MAX_RELATIONS,
      includeSoftDeleted: flags.includeSoftDeleted ?? false,
      // A field is rarely stored as an entity of its own: a field's lineage keeps the fields never stored, as DataHub's
      // graph answers them (its schemaFieldLineageIgnoreStatus default).
      includeGhosts: findEntityOfUrn(input.urn)?.name === 'schemaField',
      paths: true,
      ...(between ? { between } : {}),
    });
    const types = input.types?.length ? input.types.filter((type) => searchable.includes(type)) : searchable;
    let candidates = walked.entities.filter((e) => types.includes(findEntityOfUrn(e.urn)?.graphqlType ?? ''));

    // Words or filters: the search index decides which candidates match, a few hundred urns per question.
    const query = (input.query ?? '*').trim();
    const matched = new Map<string, { name: string; value: string }[]>();
    if ((query !== '' && query !== '*') || others.length) {
      for (let i = 0; i < candidates.length; i += URNS_PER_SEARCH) {
        const chunk = candidates.slice(i, i + URNS_PER_SEARCH).map((e) => e.urn);
        const scope: Criterion = { field: 'urn', values: chunk };
        const found = await searchIndex({
          input: query,
          filters: (others.length ? others : [[]]).map((group) => [scope, ...group]),
          start: 0,
          count: chunk.length,
          includeSoftDeleted: true,
          facets: [],
        });
        for (const hit of found.hits) matched.set(hit.urn, hit.matchedFields);
      }
      candidates = candidates.filter((e) => matched.has(e.urn));
    }

    const degreeCounts = new Map<string, number>();
    for (const e of candidates) degreeCounts.set(degreeBucket(e.degree), (degreeCounts.get(degreeBucket(e.degree)) ?? 0) + 1);
    const results = candidates.filter((e) => degree.accepts(e.degree));
    return { results, matched, degreeCounts, flags, truncated: walked.truncated };
  }

  async function searchIndex(query: Parameters<SearchIndex['search']>[0]) {
    try {
      return await search.search(query);
    } catch (error) {
      if (error instanceof SearchQueryError) throw badRequest(error.message);
      throw error;
    }
  }

  /** The facets of the results: `degree` first (DataHub's three buckets), then the index's facets of the entities found. */
  async function facetsOf(found: Awaited<ReturnType<typeof lineageSearch>>) {
    if (found.flags.skipAggregates) return [];
    const degree = {
      field: DEGREE,
      displayName: 'Degree of Dependencies',
      aggregations: DEGREE_VALUES.map((value) => ({ value, count: found.degreeCounts.get(value) ?? 0 })),
    };
    const counts = new Map<string, { displayName: string; values: Map<string, number> }>();
    for (let i = 0; i < found.results.length; i += URNS_PER_SEARCH) {
      const chunk = found.results.slice(i, i + URNS_PER_SEARCH).map((e) => e.urn);
      const { facets } = await searchIndex({
        input: '*',
        filters: [[{ field: 'urn', values: chunk }]],
        start: 0,
        count: 0,
        includeSoftDeleted: true,
        maxFacetValues: 1000,
      });
      for (const facet of facets) {
        const into = counts.get(facet.field) ?? { displayName: facet.displayName, values: new Map<string, number>() };
        for (const { value, count } of facet.values) into.values.set(value, (into.values.get(value) ?? 0) + count);
        counts.set(facet.field, into);
      }
    }
    const most = found.flags.maxAggValues ?? 20;
    const others = [...counts].map(([field, { displayName, values }]) => ({
      field,
      displayName,
      aggregations: [...values]
        .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, most)
        .map(([value, count]) => ({ value, count })),
    }));
    return [degree, ...others];
  }

  /** One result as DataHub's mapper shapes it (`explored`: its lineage was followed — all but those past the walk's bound). */
  const resultOf = async (
    entry: Awaited<ReturnType<typeof lineageSearch>>['results'][number],
    found: Awaited<ReturnType<typeof lineageSearch>>,
    context: ApiContext,
  ) => {
    const entity = await entityAt(entry.urn, context);
    if (!entity) return null;
    return {
      entity,
      insights: [],
      matchedFields: found.matched.get(entry.urn) ?? [],
      paths: await Promise.all(
        (entry.paths ?? []).map(async (path) => ({ path: await Promise.all(path.map((urn) => entityAt(urn, context))) })),
      ),
      degree: entry.degree,
      degrees: entry.degrees,
      explored: !found.truncated,
      ignoredAsHop: false,
      truncatedChildren: found.truncated,
    };
  };

  const answerPage = async (found: Awaited<ReturnType<typeof lineageSearch>>, start: number, count: number, context: ApiContext) => {
    const shown = await Promise.all(found.results.slice(start, start + count).map((entry) => resultOf(entry, found, context)));
    return shown.filter((r) => r !== null);
  };

  /** A scroll id: where the next page starts, opaque to the caller. */
  const scrollIdOf = (offset: number) => Buffer.from(JSON.stringify({ lineageOffset: offset })).toString('base64url');
  const offsetOf = (scrollId: string | null | undefined) => {
    if (!scrollId) return 0;
    try {
      const parsed: unknown = JSON.parse(Buffer.from(scrollId, 'base64url').toString());
      if (isJsonObject(parsed) && Number.isSafeInteger(parsed.lineageOffset) && (parsed.lineageOffset as number) >= 0)
        return parsed.lineageOffset as number;
    } catch {
      // refused below
    }
    throw badRequest(`Invalid scrollId: ${scrollId}`);
  };

  type LineageArgs = {
    input: {
      direction: LineageDirection;
      start?: number | null;
      count?: number | null;
      separateSiblings?: boolean | null;
      startTimeMillis?: number | null;
      endTimeMillis?: number | null;
      includeGhostEntities?: boolean | null;
    };
  };
  type Hop = Awaited<ReturnType<ReturnType<Loaders>['reader']['lineageEdges']>>[number];
  type Between = ReturnType<typeof windowOf>;

  /** The stored `siblings` aspect of an entity: its siblings and whether it is the primary one. */
  const siblingsOf = async (urn: string, context: ApiContext) => {
    const stored = (await loaders(context).aspects(urn))?.get('siblings')?.value;
    if (!isJsonObject(stored)) return undefined;
    const siblings = Array.isArray(stored.siblings) ? stored.siblings.filter((s): s is string => typeof s === 'string') : [];
    return { primary: stored.primary === true, siblings };
  };

  /** One hop of an entity's lineage: one edge per type and entity. */
  const oneHop = async (urn: string, direction: LineageDirection, between: Between, context: ApiContext) => {
    const adjacent = await loaders(context).reader.lineageEdges(urn, direction, between);
    return [...new Map(adjacent.map((edge) => [`${edge.type}\u0000${edge.urn}`, edge])).values()];
  };

  /**
   * DataHub's SiblingGraphService.filterLineageResultFromSiblings: `edges` (the lineage of `urn`) without the other
   * members of the sibling group, without the entities `existing` has already, joined to `existing`; then an entity
   * that is not its group's primary one leaves when one of its siblings is among them. Answers how many were left out.
   */
  const withoutSiblings = async (
    urn: string,
    group: ReadonlySet<string>,
    edges: readonly Hop[],
    existing: readonly Hop[],
    context: ApiContext,
  ) => {
    const outside = edges.filter((edge) => !group.has(edge.urn) || edge.urn === urn);
    const known = new Set(existing.map((edge) => edge.urn));
    const fresh = outside.filter((edge) => !known.has(edge.urn));
    const combined = [...fresh, ...existing];
    const present = new Set(combined.map((edge) => edge.urn));
    const theirSiblings = await Promise.all(combined.map((edge) => siblingsOf(edge.urn, context)));
    const kept = combined.filter((_, i) => {
      const own = theirSiblings[i];
      return !own || own.primary || !own.siblings.some((sibling) => present.has(sibling));
    });
    return { edges: kept, filtered: edges.length - fresh.length + combined.length - kept.length };
  };

  /**
   * One hop of lineage with siblings merged (SiblingGraphService.getLineage with separateSiblings false): the entity's
   * own edges and each sibling's (merged in turn with theirs), the group's members and the edges between them left out,
   * each other entity once, a non-primary sibling of an entity shown dropped in favour of it.
   */
  const mergedHop = async (
    urn: string,
    direction: LineageDirection,
    between: Between,
    context: ApiContext,
    visited: Set<string>,
  ): Promise<{ edges: Hop[]; filtered: number }> => {
    const own = await oneHop(urn, direction, between, context);
    const group = await siblingsOf(urn, context);
    if (!group?.siblings.length) return { edges: own, filtered: 0 };
    const members = new Set([...group.siblings, urn]);
    let merged = await withoutSiblings(urn, members, own, [], context);
    visited.add(urn);
    for (const sibling of group.siblings) {
      if (visited.has(sibling)) continue;
      const theirs = await mergedHop(sibling, direction, between, context, visited);
      const next = await withoutSiblings(sibling, members, theirs.edges, merged.edges, context);
      merged = { edges: next.edges, filtered: merged.filtered + theirs.filtered + next.filtered };
    }
    return merged;
  };

  /**
   * One hop, as DataHub's `EntityLineageResultResolver`: siblings' lineage merged in unless `separateSiblings`
   * (mergedHop), then entities never stored or soft-deleted left out (`filtered`) unless asked.
   */
  const lineage = async (parent: Parent, { input }: LineageArgs, context: ApiContext, info: GraphQLResolveInfo) => {
    const { start, count } = pageOrRefuse(input.start, input.count ?? 100, ALL_EDGES);
    const between = windowOf(input.startTimeMillis, input.endTimeMillis, now());
    const urn = urnOf(parent);
    const found = input.separateSiblings
      ? { edges: await oneHop(urn, input.direction, between, context), filtered: 0 }
      : await mergedHop(urn, input.direction, between, context, new Set());
    const unique = found.edges;
    let kept = unique;
    if (!input.includeGhostEntities) {
      const stored = await Promise.all(
        unique.map(async (edge) => {
          const aspects = await loaders(context).aspects(edge.urn);
          const keyAspect = findEntityOfUrn(edge.urn)?.keyAspect;
          return !!aspects && !!keyAspect && aspects.has(keyAspect) && aspects.get('status')?.value.removed !== true;
        }),
      );
      kept = unique.filter((_, i) => stored[i]);
    }
    const actor = async (urn: string | null) => (urn ? entityAt(urn, context) : null);
    const page = kept.slice(start, start + count);
    // Asked for its counts only (the UI's search results ask `total` and `filtered` of 100), no entity is answered.
    const relationships = await Promise.all(
      (selects(info, 'relationships') ? page : []).map(async (edge) => ({
        type: edge.type,
        entity: await entityAt(edge.urn, context),
        degree: 1,
        createdOn: edge.createdOn,
        createdActor: await actor(edge.createdActor),
        updatedOn: edge.updatedOn,
        updatedActor: await actor(edge.updatedActor),
        isManual: edge.manual,
        paths: [],
      })),
    );
    return {
      start,
      count: page.length,
      total: kept.length,
      filtered: found.filtered + unique.length - kept.length,
      relationships,
    };
  };

  const linked = { lineage };
  return {
    Query: {
      searchAcrossLineage: async (_parent, { input }, context) => {
        const page = pageOrRefuse(input.start, input.count, MAX_LINEAGE_PAGE);
        const found = await lineageSearch(input, context);
        const [searchResults, facets] = await Promise.all([answerPage(found, page.start, page.count, context), facetsOf(found)]);
        return {
          start: page.start,
          count: searchResults.length,
          total: found.results.length,
          searchResults,
          facets,
          freshness: null,
          lineageSearchPath: null,
        };
      },
      scrollAcrossLineage: async (_parent, { input }, context) => {
        const page = pageOrRefuse(offsetOf(input.scrollId), input.count, MAX_LINEAGE_PAGE);
        const found = await lineageSearch(input, context);
        const [searchResults, facets] = await Promise.all([answerPage(found, page.start, page.count, context), facetsOf(found)]);
        const next = page.start + page.count;
        return {
          nextScrollId: next < found.results.length ? scrollIdOf(next) : null,
          count: searchResults.length,
          total: found.results.length,
          searchResults,
          facets,
        };
      },
    },
    Dataset: linked,
    Dashboard: linked,
    Chart: linked,
    DataFlow: linked,
    DataJob: linked,
    Assertion: linked,
    MLModel: linked,
    MLModelGroup: linked,
    MLFeature: linked,
    MLFeatureTable: linked,
    MLPrimaryKey: linked,
    DataProcessInstance: linked,
    ERModelRelationship: linked,
    Restricted: linked,
    SchemaFieldEntity: linked,
  };
}
