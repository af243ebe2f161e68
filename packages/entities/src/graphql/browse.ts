import { findEntityOfUrn, isJsonObject, MAX_PAGE_SIZE, pageOf } from '@mds/core';
import { SearchQueryError, type SearchIndex } from '@mds/search';
import { badRequest, type ApiContext, type QueryResolvers, type ResolversTypes } from '@mds/schema';
import { filterGroups, type EntitySearcher } from './search';
import type { RequestLoaders } from './request-loaders';

/** DataHub's default `limit` of autocomplete. */
const DEFAULT_SUGGESTIONS = 10;

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
  searchable: readonly string[],
  searchEntities: EntitySearcher,
  loaders: (context: ApiContext) => RequestLoaders,
): QueryResolvers {
  /** The browse paths of every entity the query selects, a page of hits at a time. */
  async function* pathsOf(
    reader: RequestLoaders['reader'],
    types: readonly string[],
    query: string,
    filters: ReturnType<typeof filterGroups>,
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

  return {
    search: (_parent, { input }, context) =>
      searchEntities({ ...input, types: [input.type], sortCriteria: input.sortInput?.sortCriteria }, context),

    browseV2: async (_parent, { input }, context) => {
      const page = pageOf(input.start, input.count);
      if ('violation' in page) throw badRequest(page.violation);
      const asked = input.types?.length ? input.types : input.type ? [input.type] : searchable;
      const types = asked.filter((type) => searchable.includes(type));
      const path = input.path ?? [];
      const groups = new Map<string, { folder: Folder; count: number; hasSubGroups: boolean }>();
      let under = 0;
      if (types.length) {
        for await (const folders of pathsOf(
          loaders(context).reader,
          types,
          input.query?.trim() || '*',
          filterGroups(input),
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
      const limit = input.limit ?? DEFAULT_SUGGESTIONS;
      if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_PAGE_SIZE)
        throw badRequest(`'limit' must be an integer from 0 to ${MAX_PAGE_SIZE}`);
      const types = input.types?.length ? input.types.filter((type) => searchable.includes(type)) : searchable;
      const perType = await Promise.all(
        types.map(async (type) => {
          const found = await search.autocomplete(type, input.query, limit);
          const entities = await Promise.all(found.entities.map((e) => loaders(context).entity(type, e.urn)));
          return { type, suggestions: found.suggestions, entities: entities.filter((e) => e !== undefined) };
        }),
      );
      return {
        query: input.query,
        // `searchable` holds the EntityType names of the faces.
        suggestions: perType.filter((t) => t.suggestions.length > 0) as ResolversTypes['AutoCompleteResultForEntity'][],
      };
    },
  };
}
