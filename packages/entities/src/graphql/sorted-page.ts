import { isJsonObject } from '@mds/core';
import { SearchQueryError, type Criterion, type SearchIndex } from '@mds/search';
import { badRequest, type ApiContext } from '@mds/schema';
import type { Loaders } from './common-fields';

/**
 * How many matches a listing sorts: the search index orders by name or urn only, so the orders DataHub's listings
 * answer (a source's type, a run's request time, a creation time) are applied to the matches here. Matches past this
 * bound are left out of the order.
 */
export const SORTED_AT_MOST = 10_000;

type Json = Record<string, unknown>;

/** The order of a listing: by `key` over one aspect of each match; a match without the key goes last either way. */
export interface PageOrder {
  aspect: string;
  key: (value: Json | undefined) => string | number | undefined;
  descending: boolean;
}

/**
 * One page of the matches of a search, in the order of `order` (urn breaks ties): the search index finds them, the
 * order is applied here (see SORTED_AT_MOST). A query the index cannot parse is refused with its reason.
 */
export async function sortedPage(
  search: SearchIndex,
  loaders: Loaders,
  context: ApiContext,
  query: { entityType: string; input: string; filters: Criterion[][] },
  order: PageOrder,
  page: { start: number; count: number },
): Promise<{ total: number; urns: string[] }> {
  let found;
  try {
    found = await search.search({
      entityTypes: [query.entityType],
      input: query.input.trim() ? query.input : '*',
      filters: query.filters,
      start: 0,
      count: SORTED_AT_MOST,
      facets: [],
    });
  } catch (error) {
    if (error instanceof SearchQueryError) throw badRequest(error.message);
    throw error;
  }
  const urns = found.hits.map((hit) => hit.urn);
  const stored = await loaders(context).reader.latest(urns, [order.aspect]);
  const keyed = urns.map((urn) => ({ urn, key: order.key(stored.get(urn)?.get(order.aspect)?.value) }));
  keyed.sort((a, b) => {
    // A match without the key goes last either way, as a missing sort value does in DataHub's index.
    if (a.key === undefined || b.key === undefined) return a.key === b.key ? cmp(a.urn, b.urn) : a.key === undefined ? 1 : -1;
    const by = order.descending ? cmp(b.key, a.key) : cmp(a.key, b.key);
    return by || cmp(a.urn, b.urn);
  });
  return { total: found.total, urns: keyed.slice(page.start, page.start + page.count).map((k) => k.urn) };
}

const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

/** The time of a stored stamp (`created.time` and the like), undefined when absent. */
export const stampTime = (stamp: unknown): number | undefined =>
  isJsonObject(stamp) && typeof stamp.time === 'number' ? stamp.time : undefined;
