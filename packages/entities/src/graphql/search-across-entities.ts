import { findEntity, pageOf } from '@mds/core';
import type { SearchIndex } from '@mds/search';
import { badRequest, type ApiModule, type ResolversTypes, type SearchAcrossEntitiesInput } from '@mds/schema';

/** The GraphQL objects of one entity type for `urns`, by urn; urns it cannot answer are left out. */
export type EntityFace = (urns: readonly string[]) => Promise<ReadonlyMap<string, ResolversTypes['Entity']>>;

/**
 * `searchAcrossEntities` over the search index. It answers the entity types that have a GraphQL face (`faces`, by
 * GraphQL `EntityType`, given by the packages that own them); other types find nothing. `*` or a blank query lists
 * by name (case aside), words by relevance.
 */
export function createSearchModule(search: SearchIndex, faces: Readonly<Record<string, EntityFace>>): ApiModule {
  return {
    name: 'search',
    resolvers: {
      Query: {
        searchAcrossEntities: async (_parent, { input }) => {
          rejectFilters(input);
          const page = pageOf(input.start, input.count);
          if ('violation' in page) throw badRequest(page.violation);
          const types = input.types?.length ? input.types.filter((type) => Object.hasOwn(faces, type)) : Object.keys(faces);
          if (types.length === 0) return { start: page.start, count: 0, total: 0, searchResults: [] };
          const listing = input.query.trim() === '' || input.query.trim() === '*';
          const found = await search.search({
            entityTypes: types,
            input: input.query,
            start: page.start,
            count: page.count,
            facets: [],
            sort: listing ? { field: 'name', order: 'ASCENDING' } : undefined,
          });
          const entities = await answer(faces, found.hits);
          const searchResults = found.hits.flatMap((hit) => {
            const entity = entities.get(hit.urn);
            return entity ? [{ entity, matchedFields: hit.matchedFields }] : [];
          });
          return { start: page.start, count: searchResults.length, total: found.total, searchResults };
        },
      },
    },
  };
}

/** Each face asked once, for the hits of its type. */
async function answer(faces: Readonly<Record<string, EntityFace>>, hits: readonly { urn: string; entityType: string }[]) {
  const byType = new Map<string, string[]>();
  for (const hit of hits) {
    const type = findEntity(hit.entityType)?.graphqlType;
    if (type && Object.hasOwn(faces, type)) byType.set(type, [...(byType.get(type) ?? []), hit.urn]);
  }
  const answered = new Map<string, ResolversTypes['Entity']>();
  for (const [type, urns] of byType) for (const [urn, entity] of await faces[type]!(urns)) answered.set(urn, entity);
  return answered;
}

/** Filters are not applied yet: one would be silently ignored, so a non-empty one is refused instead. */
function rejectFilters(input: SearchAcrossEntitiesInput) {
  if (input.filters?.length) throw badRequest(`'filters' are not supported when searching tags: pass none`);
  if (input.orFilters?.some((group) => group.and?.length)) {
    throw badRequest(`'orFilters' are not supported when searching tags: pass none`);
  }
}
