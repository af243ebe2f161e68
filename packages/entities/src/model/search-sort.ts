import type { SearchQuery } from '@mds/search';
import { badRequest } from '@mds/schema';

/** A sort the index can give (by name or urn), or the 400 naming the field it cannot; Rest.li and GraphQL alike. */
export function indexSort(field: string, order: 'ASCENDING' | 'DESCENDING' = 'ASCENDING'): NonNullable<SearchQuery['sort']> {
  if (field !== 'name' && field !== 'urn') throw badRequest(`Cannot sort by ${field}: sort by name or urn`);
  return { field, order };
}
