import { ALL_PRIVILEGES, Privilege, PRIVILEGE_INFO } from '@mds/auth';
import type { PrivilegeGroups } from '@mds/entities';
import type { EntityType } from '@mds/schema';

/**
 * Each `PlatformPrivileges` flag of `me` and the DataHub privileges that grant it (any one), as DataHub's MeResolver
 * asks its authorizer. A name @mds/auth's catalog lacks (MANAGE_APPLICATIONS) is left out of the question, so its
 * flag stays false.
 */
export const PLATFORM_FLAGS = {
  viewAnalytics: ['VIEW_ANALYTICS'],
  managePolicies: ['MANAGE_POLICIES'],
  manageIdentities: ['MANAGE_USERS_AND_GROUPS'],
  generatePersonalAccessTokens: ['GENERATE_PERSONAL_ACCESS_TOKENS', 'MANAGE_ACCESS_TOKENS'],
  createDomains: ['CREATE_DOMAINS', 'MANAGE_DOMAINS'],
  manageDomains: ['MANAGE_DOMAINS'],
  manageIngestion: ['MANAGE_INGESTION'],
  manageSecrets: ['MANAGE_SECRETS'],
  manageTokens: ['MANAGE_ACCESS_TOKENS'],
  viewTests: ['VIEW_TESTS', 'MANAGE_TESTS'],
  manageTests: ['MANAGE_TESTS'],
  manageGlossaries: ['MANAGE_GLOSSARIES'],
  manageUserCredentials: ['MANAGE_USER_CREDENTIALS'],
  createTags: ['CREATE_TAGS', 'MANAGE_TAGS'],
  manageTags: ['MANAGE_TAGS'],
  viewManageTags: ['VIEW_MANAGE_TAGS', 'MANAGE_TAGS'],
  manageGlobalViews: ['MANAGE_GLOBAL_VIEWS'],
  manageOwnershipTypes: ['MANAGE_GLOBAL_OWNERSHIP_TYPES'],
  manageGlobalAnnouncements: ['MANAGE_GLOBAL_ANNOUNCEMENTS'],
  createBusinessAttributes: ['CREATE_BUSINESS_ATTRIBUTE', 'MANAGE_BUSINESS_ATTRIBUTE'],
  manageBusinessAttributes: ['MANAGE_BUSINESS_ATTRIBUTE'],
  manageStructuredProperties: ['MANAGE_STRUCTURED_PROPERTIES'],
  viewStructuredPropertiesPage: ['VIEW_STRUCTURED_PROPERTIES_PAGE', 'MANAGE_STRUCTURED_PROPERTIES'],
  // DataHub asks MANAGE on the application entity type; no role of mds grants it.
  manageApplications: ['MANAGE_APPLICATIONS'],
  manageFeatures: ['MANAGE_FEATURES'],
  manageHomePageTemplates: ['MANAGE_HOME_PAGE_TEMPLATES'],
} as const satisfies Record<string, readonly string[]>;

export type PlatformFlag = keyof typeof PLATFORM_FLAGS;

const isKnown = (name: string): name is Privilege => ALL_PRIVILEGES.has(name as Privilege);

/** The question the policy is asked for a flag: any one of its privileges mds knows (none: the flag is false). */
export function flagPrivileges(flag: PlatformFlag): PrivilegeGroups {
  const names: readonly string[] = PLATFORM_FLAGS[flag];
  return names.filter(isKnown).map((p) => [p]);
}

/** A privilege as `appConfig.policiesConfig` lists it: DataHub's name, its display name and sentence (@mds/auth's catalog). */
export interface ListedPrivilege {
  type: Privilege;
  displayName: string;
  description: string;
}

const listed = (type: Privilege): ListedPrivilege => ({
  type,
  displayName: PRIVILEGE_INFO[type].displayName,
  description: PRIVILEGE_INFO[type].description,
});

/** Every platform-wide privilege (the catalog's PLATFORM ones, DataHub's PoliciesConfig order): a policy may grant any. */
export const PLATFORM_PRIVILEGES: readonly ListedPrivilege[] = (Object.keys(PRIVILEGE_INFO) as Privilege[])
  .filter((type) => PRIVILEGE_INFO[type].type === 'PLATFORM')
  .map(listed);

/** The privileges on one entity that mds's roles (and ownership) grant, the same for every entity type. */
const ENTITY_PRIVILEGES: readonly ListedPrivilege[] = [
  listed(Privilege.VIEW_ENTITY_PAGE),
  listed(Privilege.EDIT_ENTITY),
  listed(Privilege.EDIT_ENTITY_TAGS),
  listed(Privilege.EDIT_ENTITY_OWNERS),
  listed(Privilege.EDIT_ENTITY_DOCS),
  listed(Privilege.EDIT_ENTITY_DOC_LINKS),
  listed(Privilege.EDIT_ENTITY_STATUS),
  listed(Privilege.EDIT_ENTITY_DEPRECATION),
  listed(Privilege.EDIT_ENTITY_DOMAINS),
  listed(Privilege.DELETE_ENTITY),
];

const DATASET_PRIVILEGES: readonly ListedPrivilege[] = [
  ...ENTITY_PRIVILEGES,
  listed(Privilege.EDIT_DATASET_COL_TAGS),
  listed(Privilege.EDIT_DATASET_COL_DESCRIPTION),
  listed(Privilege.VIEW_DATASET_PROFILE),
  listed(Privilege.VIEW_DATASET_USAGE),
];

export interface ListedResourcePrivileges {
  resourceType: string;
  resourceTypeDisplayName: string;
  entityType: EntityType | null;
  privileges: readonly ListedPrivilege[];
}

const resource = (
  resourceType: string,
  resourceTypeDisplayName: string,
  entityType: EntityType,
  privileges = ENTITY_PRIVILEGES,
): ListedResourcePrivileges => ({
  resourceType,
  resourceTypeDisplayName,
  entityType,
  privileges,
});

/**
 * Per resource type (DataHub's resource type names and the EntityType DataHub's AppConfigResolver maps each to), the
 * privileges mds grants on one entity of it.
 */
export const RESOURCE_PRIVILEGES: readonly ListedResourcePrivileges[] = [
  resource('dataset', 'Datasets', 'DATASET', DATASET_PRIVILEGES),
  resource('dashboard', 'Dashboards', 'DASHBOARD'),
  resource('chart', 'Charts', 'CHART'),
  resource('dataFlow', 'Data Pipelines', 'DATA_FLOW'),
  resource('dataJob', 'Data Tasks', 'DATA_JOB'),
  resource('tag', 'Tags', 'TAG'),
  resource('glossaryTerm', 'Glossary Terms', 'GLOSSARY_TERM'),
  resource('glossaryNode', 'Glossary Term Groups', 'GLOSSARY_NODE'),
  resource('domain', 'Domains', 'DOMAIN'),
  resource('container', 'Containers', 'CONTAINER'),
  resource('corpGroup', 'Groups', 'CORP_GROUP'),
  resource('corpuser', 'Users', 'CORP_USER'),
];
