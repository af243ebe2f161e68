export { createTagService, createTags, type Tags, type TagsDeps } from './module';
export { moveLegacyTags } from './legacy';
export { TagService, TAG_ALREADY_EXISTS, type TagEntities, type TagServiceOptions } from './service';
export { parseTagUrn, tagUrn, TAG_URN_PREFIX } from './urn';
export { MAX_DESCRIPTION_LENGTH, MAX_ID_LENGTH, MAX_NAME_LENGTH } from './validation';
export { MAX_QUERY_LENGTH } from './search-query';
export type * from './types';
