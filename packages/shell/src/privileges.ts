import { ALL_PRIVILEGES, Privilege } from '@mds/auth';
import type { PrivilegeGroups } from '@mds/entities';
import type { EntityType } from '@mds/schema';

/**
 * Each `PlatformPrivileges` flag of `me` and the DataHub privileges that grant it (any one), as DataHub's MeResolver
 * asks its authorizer. A privilege no role of mds can hold (VIEW_ANALYTICS, MANAGE_INGESTION …: features mds does not
 * have) is left out of the question, so its flag stays false rather than open a page that would fail.
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

/** A privilege as `appConfig.policiesConfig` lists it: DataHub's name, a display name and a sentence of mds's own. */
export interface ListedPrivilege {
  type: Privilege;
  displayName: string;
  description: string;
}

const listed = (type: Privilege, displayName: string, description: string): ListedPrivilege => ({ type, displayName, description });

/** The platform-wide privileges mds's roles grant. */
export const PLATFORM_PRIVILEGES: readonly ListedPrivilege[] = [
  listed(Privilege.MANAGE_POLICIES, 'Manage Policies', 'Assign roles to users.'),
  listed(Privilege.GENERATE_PERSONAL_ACCESS_TOKENS, 'Generate Personal Access Tokens', 'Create access tokens that act as oneself.'),
  listed(Privilege.MANAGE_ACCESS_TOKENS, 'Manage All Access Tokens', 'Create, list and revoke access tokens of any user.'),
  listed(Privilege.CREATE_TAGS, 'Create Tags', 'Create new tags.'),
  listed(Privilege.MANAGE_TAGS, 'Manage Tags', 'Create, edit and delete any tag.'),
  listed(Privilege.VIEW_MANAGE_TAGS, 'View Manage Tags', 'Open the page that lists every tag.'),
  listed(Privilege.CREATE_DOMAINS, 'Create Domains', 'Create new domains.'),
  listed(Privilege.MANAGE_DOMAINS, 'Manage Domains', 'Create, edit and delete any domain.'),
  listed(Privilege.MANAGE_SYSTEM_OPERATIONS, 'Manage System Operations', 'Run the operations actions (reindexing, restoring indices).'),
  listed(Privilege.GET_TIMESERIES_INDEX_SIZES, 'Get Timeseries Index Sizes', 'Read the sizes of the time-series indices.'),
  listed(Privilege.TRUNCATE_TIMESERIES_INDEX, 'Truncate Timeseries Index', 'Delete old time-series points.'),
  listed(Privilege.GET_ES_TASK_STATUS, 'Get Task Status', 'Follow a long-running index task.'),
  listed(
    Privilege.MANAGE_GLOBAL_VIEWS,
    'Manage Public Views',
    'Create, edit and delete the views shared with everyone, and pick the default one.',
  ),
  listed(Privilege.CREATE_GLOBAL_ANNOUNCEMENTS, 'Create Announcements', 'Publish and edit announcements.'),
  listed(Privilege.MANAGE_GLOBAL_ANNOUNCEMENTS, 'Manage Announcements', 'Publish, edit and delete any announcement.'),
  listed(Privilege.MANAGE_GLOBAL_OWNERSHIP_TYPES, 'Manage Ownership Types', 'Create, edit and delete ownership types.'),
  listed(
    Privilege.MANAGE_FEATURES,
    'Manage Platform Features',
    'Turn platform features on or off (documentation propagation, applications).',
  ),
];

/** The privileges on one entity that mds's roles (and ownership) grant, the same for every entity type. */
const ENTITY_PRIVILEGES: readonly ListedPrivilege[] = [
  listed(Privilege.VIEW_ENTITY_PAGE, 'View Entity Page', 'Read the entity.'),
  listed(Privilege.EDIT_ENTITY, 'Edit Entity', 'Make any change to the entity.'),
  listed(Privilege.EDIT_ENTITY_TAGS, 'Edit Tags', 'Add and remove the tags of the entity.'),
  listed(Privilege.EDIT_ENTITY_OWNERS, 'Edit Owners', 'Add and remove the owners of the entity.'),
  listed(Privilege.EDIT_ENTITY_DOCS, 'Edit Description', 'Change the documentation of the entity.'),
  listed(Privilege.EDIT_ENTITY_DOC_LINKS, 'Edit Links', 'Add and remove the links of the entity.'),
  listed(Privilege.EDIT_ENTITY_STATUS, 'Edit Status', 'Soft-delete and restore the entity.'),
  listed(Privilege.EDIT_ENTITY_DEPRECATION, 'Edit Deprecation', 'Mark the entity deprecated, or not.'),
  listed(Privilege.EDIT_ENTITY_DOMAINS, 'Edit Domain', 'Set the domain of the entity.'),
  listed(Privilege.DELETE_ENTITY, 'Delete', 'Delete the entity.'),
];

const DATASET_PRIVILEGES: readonly ListedPrivilege[] = [
  ...ENTITY_PRIVILEGES,
  listed(Privilege.EDIT_DATASET_COL_TAGS, 'Edit Dataset Column Tags', 'Add and remove the tags of a column.'),
  listed(Privilege.EDIT_DATASET_COL_DESCRIPTION, 'Edit Dataset Column Descriptions', 'Change the description of a column.'),
  listed(Privilege.VIEW_DATASET_PROFILE, 'View Dataset Profile', 'Read the profiles of the dataset.'),
  listed(Privilege.VIEW_DATASET_USAGE, 'View Dataset Usage', 'Read the usage statistics of the dataset.'),
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
