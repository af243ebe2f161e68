import { isJsonObject } from '@mds/core';
import type { Resolvers } from '@mds/schema';
import { COMMON_FIELDS } from './common';
import { commonFields, refWithKey, type Loaders } from './common-fields';
import type { TypeRules } from './mapping/convert';
import { entityTypeResolvers, type EntityMapping, type EntityScope } from './mapping/declare';

/** How the identity aspects' records differ from their GraphQL types (DataHub's CorpUser… and CorpGroup… mappers). */
export const USER_RULES: TypeRules = {
  // The first-read face of corpUserInfo leaves the custom properties out; `properties` shows them.
  CorpUserInfo: { manager: 'managerUrn', customProperties: () => undefined },
  CorpUserProperties: { manager: 'managerUrn' },
  CorpUserHomePageSettings: { dismissedAnnouncementUrns: 'dismissedAnnouncements' },
};

/**
 * corpUserSettings as DataHub's mapper answers it: the appearance always (not simplified unless stored), the views and
 * home page only when stored; a user with no settings aspect still has settings.
 */
function settings(entity: EntityScope) {
  const stored = entity.value('corpUserSettings');
  const appearance = isJsonObject(stored?.appearance) ? stored.appearance : undefined;
  return {
    appearance: appearance ? appearance : { showSimplifiedHomepage: false },
    views: stored?.views,
    homePage: stored?.homePage,
  };
}

/** A native user is one whose credentials hold both a salt and a hashed password; absent credentials answer null. */
function isNativeUser(entity: EntityScope) {
  const credentials = entity.value('corpUserCredentials');
  return credentials ? typeof credentials.salt === 'string' && typeof credentials.hashedPassword === 'string' : undefined;
}

/** The group's origin aspect; a group without one is of UNKNOWN origin. */
function origin(entity: EntityScope) {
  const stored = entity.value('origin');
  return { type: typeof stored?.type === 'string' ? stored.type : 'UNKNOWN', externalType: stored?.externalType };
}

/** Users and groups, declared from their aspects (DataHub's CorpUserMapper and CorpGroupMapper). */
export const USER_MAPPINGS: readonly EntityMapping[] = [
  {
    entity: 'corpuser',
    fields: {
      info: 'corpUserInfo',
      properties: 'corpUserInfo',
      editableProperties: 'corpUserEditableInfo',
      // DataHub's mapper never fills the older face of corpUserEditableInfo.
      editableInfo: () => undefined,
      status: (entity) => entity.value('corpUserStatus')?.status,
      isNativeUser,
      settings,
      tags: COMMON_FIELDS.tags,
      globalTags: COMMON_FIELDS.globalTags,
      structuredProperties: COMMON_FIELDS.structuredProperties,
      forms: COMMON_FIELDS.forms,
    },
  },
  {
    entity: 'corpGroup',
    fields: {
      info: 'corpGroupInfo',
      properties: 'corpGroupInfo',
      editableProperties: 'corpGroupEditableInfo',
      origin,
      ownership: COMMON_FIELDS.ownership,
      structuredProperties: COMMON_FIELDS.structuredProperties,
      forms: COMMON_FIELDS.forms,
    },
  },
];

/** The resolvers of CorpUser and CorpGroup (the root queries `corpUser`/`corpGroup` are module.ts's, with the other types'). */
export function userResolvers(loaders: Loaders, rules: TypeRules): Resolvers {
  const common = commonFields(loaders);
  const mappings = USER_MAPPINGS.map((mapping) => ({ ...mapping, resolvers: { exists: common.exists, aspects: common.aspects } }));
  return entityTypeResolvers(loaders, mappings, { rules: { ...rules, ...USER_RULES }, ref: refWithKey });
}
