import { COMMON_RULES } from './common';
import { pageOrRefuse, refWithKey } from './common-fields';
import { isJsonObject, MAX_PAGE_SIZE } from '@mds/core';
import { SearchQueryError, type SearchIndex } from '@mds/search';
import { badRequest, type ApiContext, type QueryResolvers, type Resolvers } from '@mds/schema';
import { commonFields, type Loaders } from './common-fields';
import { entityTypeResolvers, type EntityMapping } from './mapping/declare';
import { filterGroups } from './search';
import { entityRef } from './typenames';

/** The time of a stored stamp (`created.time`), 0 when absent. */
const timeOf = (stamp: unknown) => (isJsonObject(stamp) && typeof stamp.time === 'number' ? stamp.time : 0);

/**
 * Ownership types (DataHub's OwnershipTypeMapper and ListOwnershipTypesResolver): `OwnershipTypeEntity` from its
 * ownershipTypeInfo and status, and `listOwnershipTypes`, newest first as DataHub sorts them (by `createdAt`). The
 * types of a server are few, so every match is read and sorted here.
 */
export function ownershipTypeResolvers(loaders: Loaders, search: SearchIndex): Resolvers[] {
  const common = commonFields(loaders);
  const mapping: EntityMapping = {
    entity: 'ownershipType',
    fields: {
      info: (e) => {
        const v = e.value('ownershipTypeInfo');
        // DataHub's mapper answers the creation stamp for lastModified too.
        return v ? { ...v, lastModified: v.created } : undefined;
      },
    },
    resolvers: { status: common.status },
  };
  const query: QueryResolvers = {
    listOwnershipTypes: async (_parent, { input }, context: ApiContext) => {
      const page = pageOrRefuse(input.start ?? 0, input.count ?? 20);
      let found;
      try {
        found = await search.search({
          entityTypes: ['ownershipType'],
          input: input.query?.trim() || '*',
          filters: filterGroups({ filters: input.filters }),
          start: 0,
          count: MAX_PAGE_SIZE,
          facets: [],
        });
      } catch (error) {
        if (error instanceof SearchQueryError) throw badRequest(error.message);
        throw error;
      }
      const urns = found.hits.map((hit) => hit.urn);
      const created = new Map(
        await Promise.all(
          urns.map(async (urn) => [urn, timeOf((await loaders(context).aspects(urn))?.get('ownershipTypeInfo')?.value.created)] as const),
        ),
      );
      urns.sort((a, b) => created.get(b)! - created.get(a)! || (a < b ? -1 : 1));
      const ownershipTypes = urns.slice(page.start, page.start + page.count).flatMap((urn) => entityRef(urn) ?? []);
      return { start: page.start, count: ownershipTypes.length, total: urns.length, ownershipTypes };
    },
  };
  return [{ Query: query }, entityTypeResolvers(loaders, [mapping], { rules: COMMON_RULES, ref: refWithKey })];
}
