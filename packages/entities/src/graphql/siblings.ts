import { isJsonObject, MAX_PAGE_SIZE } from '@mds/core';
import type { ApiContext, Resolvers, ScrollAcrossEntitiesInput } from '@mds/schema';
import type { EntityService } from '../service';
import { entityOfUrn } from './catalog';
import { pageOrRefuse, selects, type Loaders } from './common-fields';
import { graphqlReader } from './mutation-support';
import { batchLoader } from './request-loaders';
import { scopedScroll, scrollIdOf, type EntitySearcher } from './search';

/** The search field DataHub indexes a `siblings` aspect's urns under (Siblings.pdl's @Searchable). */
const SIBLINGS_FIELD = 'siblings';

type ScrollAnswer = Awaited<ReturnType<EntitySearcher['scroll']>>;

/**
 * A dataset's siblings (DataHub's SiblingsMapper, its SiblingProperties.siblings batch load and SiblingsSearchResolver):
 * `siblings` shows the stored aspect, each sibling answered through its type's face as any urn of the request is (a
 * sibling that is not stored answers with what its urn says, as DataHub's loaders answer the key alone), leaving out
 * those the caller may not view when VIEW_AUTHORIZATION_ENABLED is on; `siblingsSearch` is the scroll search
 * restricted to the entities whose `siblings` name this one — for every dataset of a depth of the answer asking the
 * same input (a page of search results), one search for all of them, its hits shared out by their `siblings`.
 */
export function siblingResolvers(service: EntityService, loaders: Loaders, searchEntities: EntitySearcher): Resolvers {
  const sibling = entityOfUrn(loaders);
  const oneByOne = scopedScroll(searchEntities, SIBLINGS_FIELD);
  const siblingsNamed = async (urn: string, context: ApiContext) => {
    const stored = (await loaders(context).aspects(urn))?.get('siblings')?.value;
    return isJsonObject(stored) && Array.isArray(stored.siblings) ? stored.siblings : [];
  };

  /**
   * The answers of one input for many datasets: one search scoped to all of them; each dataset's hits, in the
   * search's order, are those whose `siblings` name it. Should the search find more than a page holds, each dataset
   * is searched on its own.
   */
  const searchTogether = (asked: ScrollAcrossEntitiesInput, context: ApiContext) =>
    batchLoader<ScrollAnswer>(async (urns) => {
      // No facets are asked here (a selection naming them is searched alone): none are counted.
      const input = { ...asked, searchFlags: { ...asked.searchFlags, skipAggregates: true } };
      const page = pageOrRefuse(0, input.count);
      const scope = [{ field: SIBLINGS_FIELD, values: urns }];
      const request = { ...input, count: MAX_PAGE_SIZE, scrollId: null, scope };
      const found = await searchEntities.scroll(request, context);
      if (found.total > found.searchResults.length) {
        const each = await Promise.all(urns.map((urn) => oneByOne({ urn }, { input }, context)));
        return new Map(urns.map((urn, i) => [urn, each[i]!]));
      }
      const named = await Promise.all(found.searchResults.map((hit) => siblingsNamed(hit.entity.urn, context)));
      return new Map(
        urns.map((urn) => {
          const hits = found.searchResults.filter((_, i) => named[i]!.includes(urn));
          const shown = hits.slice(0, page.count);
          const next = page.count < hits.length ? scrollIdOf(page.count) : null;
          return [urn, { nextScrollId: next, count: shown.length, total: hits.length, searchResults: shown, facets: [] }];
        }),
      );
    });
  const together = new WeakMap<ApiContext, Map<string, (urn: string) => Promise<ScrollAnswer | undefined>>>();

  return {
    Dataset: {
      siblings: async (parent, _args, context) => {
        const stored = (await loaders(context).aspects(parent.urn))?.get('siblings')?.value;
        if (!isJsonObject(stored)) return null;
        const urns = Array.isArray(stored.siblings) ? stored.siblings.filter((s): s is string => typeof s === 'string') : [];
        const shown = await graphqlReader(service, context.actor).viewable(urns);
        return {
          isPrimary: typeof stored.primary === 'boolean' ? stored.primary : null,
          siblings: await Promise.all(shown.map((urn) => sibling(urn, context))),
        };
      },
      siblingsSearch: async (parent, args, context, info) => {
        // A later page, or facets (which are the one dataset's), are searched for the dataset alone.
        if (args.input.scrollId || selects(info, 'facets')) return oneByOne(parent, args, context);
        const byInput = together.get(context) ?? new Map<string, (urn: string) => Promise<ScrollAnswer | undefined>>();
        together.set(context, byInput);
        const key = JSON.stringify(args.input);
        let load = byInput.get(key);
        if (!load) byInput.set(key, (load = searchTogether(args.input, context)));
        return (await load(parent.urn))!;
      },
    },
  };
}
