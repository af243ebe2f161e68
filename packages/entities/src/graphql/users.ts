import { Privilege } from '@mds/auth';
import { isJsonObject, parseUrn, UrnError } from '@mds/core';
import { badRequest, type MutationResolvers, type Resolvers } from '@mds/schema';
import { anyOf, type EntityService } from '../service';
import { COMMON_FIELDS } from './common';
import { commonFields, refWithKey, type Loaders } from './common-fields';
import type { TypeRules } from './mapping/convert';
import { entityTypeResolvers, type EntityMapping, type EntityScope } from './mapping/declare';

/** How the identity aspects' records differ from their GraphQL types (DataHub's CorpUser… and CorpGroup… mappers). */
export const USER_RULES: TypeRules = {
  // The first-read face of corpUserInfo leaves the custom properties out; `properties` shows them.
  CorpUserInfo: { manager: 'managerUrn', customProperties: () => undefined },
  CorpUserProperties: { manager: 'managerUrn' },
  CorpUserEditableProperties: { persona: (value) => (typeof value.persona === 'string' ? { urn: value.persona } : undefined) },
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

const MANAGE_USERS = anyOf(Privilege.MANAGE_USERS_AND_GROUPS);

/** The urn of a user, or a 400 naming the argument (a group's or a dataset's urn is refused, not written). */
function userUrn(urn: string): string {
  let entityType: string | undefined;
  try {
    entityType = parseUrn(urn).entityType;
  } catch (error) {
    if (!(error instanceof UrnError)) throw error;
  }
  if (entityType !== 'corpuser') throw badRequest(`Invalid user urn: ${urn}`);
  return urn;
}

/** The mutations of users and groups (DataHub's resolvers of `resolvers/user` and `resolvers/group`). */
export function userMutationResolvers(service: EntityService, now: () => number): MutationResolvers {
  return {
    // UpdateUserStatusResolver: MANAGE_USERS_AND_GROUPS; corpUserStatus with the actor's stamp.
    updateUserStatus: async (_parent, { urn, status }, { actor }) => {
      const grant = await service.authorize(actor, MANAGE_USERS);
      userUrn(urn);
      const stamp = { time: now(), actor: actor.urn };
      await service.write(grant, [{ urn, aspect: 'corpUserStatus', changeType: 'UPSERT', value: { status, lastModified: stamp } }], stamp);
      return urn;
    },
  };
}
