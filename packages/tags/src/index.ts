export { createTagsModule, type TagsModuleOptions } from './module';
export { createTagStore, TagStore, TAG_ALREADY_EXISTS, type TagStoreOptions } from './store';
export { parseTagUrn, tagUrn, TAG_URN_PREFIX } from './urn';
export { MAX_DESCRIPTION_LENGTH, MAX_ID_LENGTH, MAX_NAME_LENGTH } from './validation';
export { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MAX_QUERY_LENGTH } from './search-query';
export type * from './types';
