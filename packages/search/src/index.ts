export { isStructuredPropertyField, searchDocument, STRUCTURED_PROPERTY_FIELD_PREFIX, type SearchDocument } from './document';
export {
  FACET_FIELDS,
  SearchQueryError,
  type BrowseResult,
  type Criterion,
  type FacetField,
  type SearchIndex,
  type SearchQuery,
  type SearchResult,
} from './port';
export { createSqlSearchIndex, isFacetField } from './sql-index';
