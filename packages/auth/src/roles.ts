import { badRequest } from '@mds/schema';
import { ROOT_ACTOR_URN } from './actors';
import { ALL_PRIVILEGES, Privilege } from './privileges';

export const ROLE_URNS = {
  Admin: 'urn:li:dataHubRole:Admin',
  Editor: 'urn:li:dataHubRole:Editor',
  Reader: 'urn:li:dataHubRole:Reader',
} as const;
export type RoleUrn = (typeof ROLE_URNS)[keyof typeof ROLE_URNS];

export interface Role {
  urn: RoleUrn;
  name: string;
  description: string;
  privileges: ReadonlySet<Privilege>;
}

/**
 * What every user holds whatever the role, even none. DataHub's default policy 7 grants it to all users; it stays here
 * too because the token resolvers of this package ask the role table, not the stored policies.
 */
const BASELINE: readonly Privilege[] = [Privilege.GENERATE_PERSONAL_ACCESS_TOKENS];

const privilegeSet = (...privileges: Privilege[]): ReadonlySet<Privilege> => new Set([...BASELINE, ...privileges]);

/**
 * What DataHub's default policies for all users give a Reader and an Editor too (boot/policies.json: policy 7,
 * view-entity-page-all, view-dataset-sensitive): viewing entities, their profiles, usage and operations, and analytics.
 * Users without a role get them from those three policies, which @mds/entities stores (editable) at every start.
 */
const VIEWING: readonly Privilege[] = [
  Privilege.VIEW_ANALYTICS,
  Privilege.VIEW_ENTITY_PAGE,
  Privilege.VIEW_DATASET_PROFILE,
  Privilege.VIEW_DATASET_USAGE,
  Privilege.VIEW_DATASET_OPERATIONS,
  Privilege.VIEW_STRUCTURED_PROPERTIES_PAGE,
  Privilege.GET_ENTITY,
  Privilege.GET_COUNTS,
  Privilege.GET_TIMELINE,
  Privilege.GET_TIMESERIES_ASPECT,
  Privilege.SEARCH,
  Privilege.ES_EXPLAIN_QUERY,
];

/**
 * The fixed roles (spec 3), with DataHub's names and descriptions. Admin holds every privilege, MANAGE_POLICIES
 * included (DataHub's batchAssignRole requires it). Editor and Reader hold what DataHub's default policies give the
 * role and all users (boot/policies.json; test/default-policies.test.ts compares them), on every entity: DataHub's
 * Editor holds EDIT_ENTITY only on the 13 entity types its policy lists, here on all.
 */
export const ROLES: readonly Role[] = [
  {
    urn: ROLE_URNS.Admin,
    name: 'Admin',
    description: 'Can do everything on the platform.',
    privileges: ALL_PRIVILEGES,
  },
  {
    urn: ROLE_URNS.Editor,
    name: 'Editor',
    description: 'Can read and edit all metadata. Cannot take administrative actions.',
    privileges: privilegeSet(
      ...VIEWING,
      // Editors - Platform Policy
      Privilege.MANAGE_TAGS,
      Privilege.MANAGE_DOMAINS,
      Privilege.MANAGE_GLOSSARIES,
      Privilege.MANAGE_BUSINESS_ATTRIBUTE,
      Privilege.MANAGE_DOCUMENTATION_FORMS,
      Privilege.MANAGE_FEATURES,
      Privilege.MANAGE_GLOBAL_ANNOUNCEMENTS,
      Privilege.MANAGE_STRUCTURED_PROPERTIES,
      // Editors - Metadata Policy, and Edit Metadata Entities (EDIT_ENTITY)
      Privilege.EDIT_ENTITY,
      Privilege.EDIT_ENTITY_TAGS,
      Privilege.EDIT_DATASET_COL_TAGS,
      Privilege.EDIT_ENTITY_GLOSSARY_TERMS,
      Privilege.EDIT_DATASET_COL_GLOSSARY_TERMS,
      Privilege.EDIT_DATASET_COL_BUSINESS_ATTRIBUTE,
      Privilege.EDIT_ENTITY_DOCS,
      Privilege.EDIT_DATASET_COL_DESCRIPTION,
      Privilege.EDIT_ENTITY_DOC_LINKS,
      Privilege.EDIT_ENTITY_DEPRECATION,
      Privilege.EDIT_ENTITY_DOMAINS,
      Privilege.EDIT_ENTITY_STATUS,
      Privilege.EDIT_ENTITY_PROPERTIES,
      Privilege.EDIT_ENTITY_ASSERTIONS,
      Privilege.EDIT_ENTITY_INCIDENTS,
      Privilege.EDIT_ENTITY_QUERIES,
      Privilege.EDIT_ENTITY_DATA_PRODUCTS,
      Privilege.EDIT_LINEAGE,
      Privilege.EDIT_TAG_COLOR,
      Privilege.MANAGE_DATA_PRODUCTS,
      Privilege.MANAGE_ASSET_SUMMARY,
      Privilege.PRODUCE_PLATFORM_EVENT,
    ),
  },
  {
    urn: ROLE_URNS.Reader,
    name: 'Reader',
    description: 'Can read all metadata. Cannot edit anything by default, or take administrative actions.',
    privileges: privilegeSet(...VIEWING),
  },
];

const rolesByUrn = new Map<string, Role>(ROLES.map((role) => [role.urn, role]));
const NO_ROLE_PRIVILEGES = privilegeSet();

export function isRoleUrn(urn: string): urn is RoleUrn {
  return rolesByUrn.has(urn);
}

/** The privileges of a user holding `roleUrn` (null: no role). An unknown stored role counts as none. */
export function privilegesOfRole(roleUrn: string | null): ReadonlySet<Privilege> {
  return (roleUrn && rolesByUrn.get(roleUrn)?.privileges) || NO_ROLE_PRIVILEGES;
}

const unions = new Map<string, ReadonlySet<Privilege>>();

/**
 * The privileges of a user holding every one of `roles` (its own and its groups'; none: what a user without a role
 * holds), one shared set per combination. The root user holds every privilege whatever its roles, as DataHub's root
 * policy gives it.
 */
export function privilegesOfRoles(userUrn: string, roles: readonly string[]): ReadonlySet<Privilege> {
  if (userUrn === ROOT_ACTOR_URN) return ALL_PRIVILEGES;
  if (roles.length <= 1) return privilegesOfRole(roles[0] ?? null);
  const key = [...roles].sort().join(' ');
  let union = unions.get(key);
  if (!union) {
    union = new Set(roles.flatMap((role) => [...privilegesOfRole(role)]));
    if (unions.size < 1000) unions.set(key, union);
  }
  return union;
}

/** Checks a caller-supplied role urn (null removes the role), answering 400 naming the known roles. */
export function requireRoleUrn(roleUrn: string | null, field: string): RoleUrn | null {
  if (roleUrn === null || isRoleUrn(roleUrn)) return roleUrn;
  throw badRequest(
    `Field '${field}': unknown role '${roleUrn}'; expected one of ${ROLES.map((r) => r.urn).join(', ')}, or null to remove the role.`,
  );
}
