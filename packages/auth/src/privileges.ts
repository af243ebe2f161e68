import { forbidden, FORBIDDEN_MESSAGE, type Actor } from '@mds/schema';

/** Platform privileges, by their exact DataHub names (spec 3). */
export const Privilege = {
  MANAGE_TAGS: 'MANAGE_TAGS',
  CREATE_TAGS: 'CREATE_TAGS',
  VIEW_MANAGE_TAGS: 'VIEW_MANAGE_TAGS',
  GENERATE_PERSONAL_ACCESS_TOKENS: 'GENERATE_PERSONAL_ACCESS_TOKENS',
  MANAGE_ACCESS_TOKENS: 'MANAGE_ACCESS_TOKENS',
  MANAGE_POLICIES: 'MANAGE_POLICIES',
  MANAGE_SYSTEM_OPERATIONS: 'MANAGE_SYSTEM_OPERATIONS',
  GET_TIMESERIES_INDEX_SIZES: 'GET_TIMESERIES_INDEX_SIZES_PRIVILEGE',
  TRUNCATE_TIMESERIES_INDEX: 'TRUNCATE_TIMESERIES_INDEX_PRIVILEGE',
  GET_ES_TASK_STATUS: 'GET_ES_TASK_STATUS_PRIVILEGE',
  // Entity privileges (entities-api §11); mds has no per-entity policies, so a role grants them on every entity.
  VIEW_ENTITY_PAGE: 'VIEW_ENTITY_PAGE',
  EDIT_ENTITY: 'EDIT_ENTITY',
  EDIT_ENTITY_TAGS: 'EDIT_ENTITY_TAGS',
  EDIT_DATASET_COL_TAGS: 'EDIT_DATASET_COL_TAGS',
  EDIT_ENTITY_OWNERS: 'EDIT_ENTITY_OWNERS',
  EDIT_ENTITY_DOCS: 'EDIT_ENTITY_DOCS',
  EDIT_DATASET_COL_DESCRIPTION: 'EDIT_DATASET_COL_DESCRIPTION',
  EDIT_ENTITY_DEPRECATION: 'EDIT_DEPRECATION_PRIVILEGE',
  EDIT_ENTITY_DOMAINS: 'EDIT_DOMAINS_PRIVILEGE',
  EDIT_ENTITY_DOC_LINKS: 'EDIT_ENTITY_DOC_LINKS',
  EDIT_ENTITY_STATUS: 'EDIT_ENTITY_STATUS',
  VIEW_DATASET_PROFILE: 'VIEW_DATASET_PROFILE',
  VIEW_DATASET_USAGE: 'VIEW_DATASET_USAGE',
  DELETE_ENTITY: 'DELETE_ENTITY',
  MANAGE_DOMAINS: 'MANAGE_DOMAINS',
  CREATE_DOMAINS: 'CREATE_DOMAINS',
  // Metadata tests are listed and read (`listTests`, `test`); mds has no mutation managing them, so no MANAGE_TESTS.
  VIEW_TESTS: 'VIEW_TESTS',
  MANAGE_USERS_AND_GROUPS: 'MANAGE_USERS_AND_GROUPS',
} as const;
export type Privilege = (typeof Privilege)[keyof typeof Privilege];

export const ALL_PRIVILEGES: ReadonlySet<Privilege> = new Set(Object.values(Privilege));

/**
 * What the owner of an entity may do to it whatever the role (DataHub's default "Asset Owners - Metadata Policy",
 * `resourceOwners: true`): every entity edit but deletion.
 */
export const RESOURCE_OWNER_PRIVILEGES: ReadonlySet<Privilege> = new Set([
  Privilege.VIEW_ENTITY_PAGE,
  Privilege.EDIT_ENTITY,
  Privilege.EDIT_ENTITY_TAGS,
  Privilege.EDIT_DATASET_COL_TAGS,
  Privilege.EDIT_ENTITY_OWNERS,
  Privilege.EDIT_ENTITY_DOCS,
  Privilege.EDIT_DATASET_COL_DESCRIPTION,
  Privilege.EDIT_ENTITY_DOC_LINKS,
  Privilege.EDIT_ENTITY_STATUS,
  Privilege.EDIT_ENTITY_DEPRECATION,
  Privilege.EDIT_ENTITY_DOMAINS,
  Privilege.VIEW_DATASET_PROFILE,
  Privilege.VIEW_DATASET_USAGE,
]);

export function hasAnyPrivilege(actor: Actor, anyOf: readonly Privilege[]): boolean {
  return anyOf.some((p) => actor.privileges.has(p));
}

/**
 * Throws DataHub's 403 (`UNAUTHORIZED`) unless the actor holds at least one of the privileges.
 * REST operations pass their own message (spec 6 has one per action).
 */
export function requirePrivilege(actor: Actor, anyOf: readonly Privilege[], message: string = FORBIDDEN_MESSAGE): void {
  if (!hasAnyPrivilege(actor, anyOf)) throw forbidden(message);
}
