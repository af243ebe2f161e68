import type { SqlExecutor } from '@mds/db';
import type { SearchDocument } from './document';

/** The facets a search counts, by their DataHub field names. */
export const FACET_FIELDS = ['_entityType', 'platform', 'origin', 'tags', 'owners', 'domains', 'glossaryTerms'] as const;
export type FacetField = (typeof FACET_FIELDS)[number];

/** One filter criterion (DataHub's `Criterion` / GraphQL `FacetFilterInput`). */
export interface Criterion {
  field: string;
  values?: readonly string[];
  /** The single-value form older clients send. */
  value?: string;
  /** EQUAL (default), IN, CONTAIN, START_WITH, EXISTS. */
  condition?: string;
  negated?: boolean;
}

export interface SearchQuery {
  /** Registry names or GraphQL types (`dataset`, `DATASET`); absent: every entity type. */
  entityTypes?: readonly string[];
  /** Words to find, each as a prefix; `*` or blank: everything; text without a word: nothing. */
  input: string;
  /** Or of and-groups. */
  filters?: readonly (readonly Criterion[])[];
  start: number;
  count: number;
  includeSoftDeleted?: boolean;
  /**
   * Which facets to count, and how many values each: by default FACET_FIELDS and the facets (`addToFilters`) DataHub's
   * model declares for the entity types searched; [] for none; any `@Searchable` field name of the model may be asked,
   * a structured property's values (`structuredProperties.<id>`), and levels of those joined by `␞`.
   */
  facets?: readonly string[];
  /** Facets counted besides the default ones when `facets` is absent (a search's structured-property facets). */
  moreFacets?: readonly string[];
  maxFacetValues?: number;
  /**
   * Default: relevance for words, otherwise urn. `name` sorts case aside; `entityType` by the entity type's registry
   * name, case aside, then by name (DataHub's `_index`, one index per type); urn breaks every tie.
   */
  sort?: { field: 'name' | 'urn' | 'entityType'; order: 'ASCENDING' | 'DESCENDING' };
}

export interface SearchResult {
  total: number;
  hits: { urn: string; entityType: string; matchedFields: { name: string; value: string }[] }[];
  facets: { field: string; displayName: string; values: { value: string; count: number }[] }[];
}

export interface BrowseResult {
  entities: { name: string; urn: string }[];
  groups: { name: string; count: number }[];
  metadata: { path: string; totalNumEntities: number };
  from: number;
  pageSize: number;
  numEntities: number;
  numGroups: number;
  numElements: number;
}

/** A query the index cannot answer as asked (unknown field, unsupported condition): the caller's 400. */
export class SearchQueryError extends Error {
  override name = 'SearchQueryError';
}

/** The search index port: its adapters pass test/contract.ts. */
export interface SearchIndex {
  migrate(): Promise<void>;
  /**
   * Replaces the entities' documents, inside the caller's transaction (the aspect write that changed them), in a few
   * statements however many they are. `fresh`: the caller knows none of them has a document yet (they were just
   * created), so none is looked for.
   */
  put(tx: SqlExecutor, docs: SearchDocument | readonly SearchDocument[], options?: { fresh?: boolean }): Promise<void>;
  remove(tx: SqlExecutor, urn: string): Promise<void>;
  search(query: SearchQuery): Promise<SearchResult>;
  list(
    entityType: string,
    start: number,
    count: number,
    includeSoftDeleted?: boolean,
  ): Promise<{ entities: string[]; start: number; count: number; total: number }>;
  /** Names of `entityType` starting with the query's words; `filters` (an or of and-groups) narrow the entities. */
  autocomplete(
    entityType: string,
    query: string,
    limit: number,
    options?: { filters?: readonly (readonly Criterion[])[] },
  ): Promise<{ query: string; suggestions: string[]; entities: { urn: string }[] }>;
  /**
   * Over `browsePaths`: groups are the next segments below `path`, entities those whose path is `path`; `filters` (an
   * or of and-groups) narrow the entities counted and listed.
   */
  browse(
    entityType: string,
    path: string,
    start: number,
    limit: number,
    options?: { filters?: readonly (readonly Criterion[])[] },
  ): Promise<BrowseResult>;
}
