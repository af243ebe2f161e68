import { pageOrRefuse } from './common-fields';
import { findEntityOfUrn, isJsonObject, MAX_PAGE_SIZE, parseEntityUrn, UrnError } from '@mds/core';
import { SearchQueryError, type SearchIndex } from '@mds/search';
import { badRequest, type ApiContext, type QueryResolvers, type ResolversTypes } from '@mds/schema';
import { sortCriteriaOf, type EntitySearcher } from './search';
import type { RequestLoaders } from './request-loaders';
import type { EntityScope } from './mapping/declare';

/** DataHub's default `limit` of autocomplete. */
const DEFAULT_SUGGESTIONS = 10;

/** The autocomplete's limit, after DataHub's check of its query (blank is refused), or the caller's 400. */
function checkedLimit(input: { query: string; limit?: number | null }): number {
  if (input.query.trim() === '') throw badRequest(`'query' parameter can not be null or empty`);
  const limit = input.limit ?? DEFAULT_SUGGESTIONS;
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_PAGE_SIZE)
    throw badRequest(`'limit' must be an integer from 0 to ${MAX_PAGE_SIZE}`);
  return limit;
}

interface Folder {
  id: string;
  urn: string | null;
}

/**
 * `search`, `browseV2` and `autoCompleteForMultiple` (entities-api §9.3). browseV2 reads the browsePathsV2 of the
 * entities the query and filters select, a page of hits at a time: its cost grows with the entities under the path.
 */
export function browseResolvers(
  search: SearchIndex,
  searchEntities: EntitySearcher,
  loaders: (context: ApiContext) => RequestLoaders,
): QueryResolvers {
  /** The browse paths of every entity the query selects, a page of hits at a time. */
  async function* pathsOf(
    reader: RequestLoaders['reader'],
    types: readonly string[],
    query: string,
    filters: Awaited<ReturnType<EntitySearcher['narrowed']>>['groups'],
    includeSoftDeleted: boolean,
  ) {
    for (let start = 0; ; start += MAX_PAGE_SIZE) {
      let found;
      try {
        found = await search.search({
          entityTypes: types,
          input: query,
          filters,
          start,
          count: MAX_PAGE_SIZE,
          includeSoftDeleted,
          facets: [],
          sort: { field: 'urn', order: 'ASCENDING' },
        });
      } catch (error) {
        // An unknown filter field or an unsupported condition: the caller's 400, in the index's words.
        if (error instanceof SearchQueryError) throw badRequest(error.message);
        throw error;
      }
      const urns = found.hits.map((hit) => hit.urn);
      const stored = await reader.latest(urns, ['browsePathsV2']);
      for (const urn of urns) {
        const path = stored.get(urn)?.get('browsePathsV2')?.value.path;
        yield (Array.isArray(path) ? path : [])
          .filter(isJsonObject)
          .map((entry): Folder => ({ id: String(entry.id ?? ''), urn: typeof entry.urn === 'string' ? entry.urn : null }));
      }
      if (start + MAX_PAGE_SIZE >= found.total) return;
    }
  }

  /** One type's names completing `input.query` within `groups`, with the entities they name. */
  async function complete(
    type: string,
    input: { query: string; limit?: number | null },
    groups: Awaited<ReturnType<EntitySearcher['narrowed']>>['groups'],
    context: ApiContext,
  ) {
    const limit = checkedLimit(input);
    let found;
    try {
      found = await search.autocomplete(type, input.query, limit, { filters: groups });
    } catch (error) {
      if (error instanceof SearchQueryError) throw badRequest(error.message);
      throw error;
    }
    const entities = await Promise.all(found.entities.map((e) => loaders(context).entity(type, e.urn)));
    return { type, suggestions: found.suggestions, entities: entities.filter((e) => e !== undefined) };
  }

  return {
    browse: async (_parent, { input }, context) => {
      const page = pageOrRefuse(input.start, input.count);
      const { types, groups: filters } = await searchEntities.narrowed({ ...input, types: [input.type], query: '*' }, context);
      const path = (input.path ?? []).filter((segment) => segment !== '');
      const empty = { entities: [], groups: [], start: page.start, count: page.count, total: 0, metadata: { path, totalNumEntities: 0 } };
      if (types.length === 0) return empty;
      let found;
      try {
        found = await search.browse(input.type, `/${path.join('/')}`, page.start, page.count, { filters });
      } catch (error) {
        if (error instanceof SearchQueryError) throw badRequest(error.message);
        throw error;
      }
      const entities = await Promise.all(found.entities.map((e) => loaders(context).entity(input.type, e.urn)));
      return {
        entities: entities.filter((e) => e !== undefined),
        groups: found.groups,
        start: page.start,
        count: page.count,
        total: found.numElements,
        metadata: { path, totalNumEntities: found.metadata.totalNumEntities },
      };
    },

    browsePaths: async (_parent, { input }, context) => {
      try {
        parseEntityUrn(input.urn);
      } catch (error) {
        if (error instanceof UrnError) throw badRequest(`Invalid urn: ${input.urn}`);
        throw error;
      }
      return browsePathsOf((await loaders(context).reader.latest([input.urn], ['browsePaths'])).get(input.urn)?.get('browsePaths')?.value);
    },

    search: (_parent, { input }, context) =>
      searchEntities({ ...input, types: [input.type], sortCriteria: sortCriteriaOf(input.sortInput) }, context),

    browseV2: async (_parent, { input }, context) => {
      const page = pageOrRefuse(input.start, input.count);
      const asked = input.types?.length ? input.types : input.type ? [input.type] : [];
      const { types, groups: filters } = await searchEntities.narrowed({ ...input, types: asked, query: input.query ?? '*' }, context);
      const path = input.path ?? [];
      const groups = new Map<string, { folder: Folder; count: number; hasSubGroups: boolean }>();
      let under = 0;
      if (types.length) {
        for await (const folders of pathsOf(
          loaders(context).reader,
          types,
          input.query?.trim() || '*',
          filters,
          input.searchFlags?.includeSoftDeleted ?? false,
        )) {
          if (folders.length < path.length || path.some((id, i) => folders[i]!.id !== id)) continue;
          under++;
          const next = folders[path.length];
          if (!next) continue;
          const group = groups.get(next.id) ?? { folder: next, count: 0, hasSubGroups: false };
          group.count++;
          group.hasSubGroups ||= folders.length > path.length + 1;
          groups.set(next.id, group);
        }
      }
      const sorted = [...groups.values()].sort((a, b) => a.folder.id.localeCompare(b.folder.id));
      const shown = await Promise.all(
        sorted.slice(page.start, page.start + page.count).map(async ({ folder, count, hasSubGroups }) => {
          const type = folder.urn ? findEntityOfUrn(folder.urn)?.graphqlType : undefined;
          const entity = folder.urn && type ? ((await loaders(context).entity(type, folder.urn)) ?? null) : null;
          return { name: folder.id, entity, count, hasSubGroups };
        }),
      );
      return { groups: shown, start: page.start, count: shown.length, total: groups.size, metadata: { path, totalNumEntities: under } };
    },

    autoCompleteForMultiple: async (_parent, { input }, context) => {
      checkedLimit(input);
      const { types, groups } = await searchEntities.narrowed({ ...input }, context);
      const perType = await Promise.all(types.map((type) => complete(type, input, groups, context)));
      return {
        query: input.query,
        // `searchable` holds the EntityType names of the faces.
        suggestions: perType.filter((t) => t.suggestions.length > 0) as ResolversTypes['AutoCompleteResultForEntity'][],
      };
    },

    autoComplete: async (_parent, { input }, context) => {
      // DataHub's resolver has no entity type to ask without one (it fails); here it is the caller's 400.
      if (!input.type) throw badRequest(`autoComplete needs 'type': the entity type to complete`);
      checkedLimit(input);
      const { types, groups } = await searchEntities.narrowed({ ...input, types: [input.type] }, context);
      const found = types.length ? await complete(input.type, input, groups, context) : { suggestions: [], entities: [] };
      return { query: input.query, suggestions: found.suggestions, entities: found.entities };
    },
  };
}

/** The paths of a `browsePaths` aspect as DataHub's BrowsePathsMapper gives them: split at `/`, empty parts left out. */
function browsePathsOf(value: unknown): { path: string[] }[] {
  const paths = isJsonObject(value) && Array.isArray(value.paths) ? value.paths : [];
  return paths.filter((p): p is string => typeof p === 'string').map((p) => ({ path: p.split('/').filter((segment) => segment !== '') }));
}

/** The `browsePaths` field of an entity mapping: its browsePaths aspect, as browsePathsOf gives it. */
export const browsePathsField = (entity: EntityScope) => browsePathsOf(entity.value('browsePaths'));
