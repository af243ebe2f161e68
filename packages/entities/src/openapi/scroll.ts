import type { EntitySpec } from '@mds/core';
import { SearchQueryError, type SearchIndex, type SearchResult } from '@mds/search';
import { badRequest } from '@mds/schema';
import { flag, integer, list } from './request';

export const MAX_COUNT = 10_000;

/**
 * The opaque scrollId: the next page's offset and what the query was, base64url. A scrollId from another query is a
 * 400 rather than a page of the wrong results.
 */
const encodeScrollId = (start: number, query: string) => Buffer.from(JSON.stringify({ start, query })).toString('base64url');

function decodeScrollId(scrollId: string, query: string): number {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(scrollId, 'base64url').toString('utf8'));
    const { start, query: of } = decoded as { start?: unknown; query?: unknown };
    if (Number.isInteger(start) && (start as number) >= 0 && of === query) return start as number;
  } catch {
    // falls through to the 400
  }
  throw badRequest(`Invalid scrollId: ${scrollId} (pass the scrollId of the previous page of the same query)`);
}

/** The search parameters DataHub's scroll calls take: `count`, `query`, `scrollId`, `sortCriteria`/`sort`, `sortOrder`, `includeSoftDelete`. */
function searchParameters(query: URLSearchParams, entityNames: readonly string[]) {
  const count = integer(query, 'count', 10, 0, MAX_COUNT);
  const input = query.get('query') || '*';
  const sortFields = list(query, 'sortCriteria');
  const field = sortFields[0] ?? (query.get('sort') || 'urn');
  if (sortFields.length > 1 || (field !== 'urn' && field !== 'name')) {
    throw badRequest(`Cannot sort by ${sortFields.join(', ') || field}: sort by one of urn, name`);
  }
  const order = query.get('sortOrder') || 'ASCENDING';
  if (order !== 'ASCENDING' && order !== 'DESCENDING')
    throw badRequest(`Parameter 'sortOrder' must be ASCENDING or DESCENDING, got: ${order}`);
  const includeSoftDeleted = flag(query, 'includeSoftDelete', false);
  const scrollId = query.get('scrollId');
  // The query a scrollId belongs to: everything that decides which results come in which order.
  const identity = JSON.stringify([entityNames, input, field, order, includeSoftDeleted]);
  return {
    count,
    input,
    sort: { field, order } as const,
    includeSoftDeleted,
    start: scrollId ? decodeScrollId(scrollId, identity) : 0,
    identity,
  };
}

/** One page of urns of `entities` for a scroll call, and the scrollId of the next page (absent on the last). */
export async function scrollPage(search: SearchIndex, entities: readonly EntitySpec[], query: URLSearchParams) {
  const entityTypes = entities.map((e) => e.name);
  const p = searchParameters(query, entityTypes);
  const found = await searched(() =>
    search.search({
      entityTypes,
      input: p.input,
      start: p.start,
      count: p.count,
      sort: p.sort,
      includeSoftDeleted: p.includeSoftDeleted,
      facets: [],
    }),
  );
  const next = p.start + found.hits.length;
  return { hits: found.hits, scrollId: found.hits.length > 0 && next < found.total ? encodeScrollId(next, p.identity) : undefined };
}

/** The index's SearchQueryError (a query it cannot answer as asked) is the caller's 400. */
async function searched(run: () => Promise<SearchResult>): Promise<SearchResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof SearchQueryError) throw badRequest(error.message);
    throw error;
  }
}
