import type { Privilege } from './privileges';

/** Whether a privilege is granted on the platform (no resource) or on the resources a metadata policy selects. */
export type PrivilegeType = 'PLATFORM' | 'RESOURCE';

export interface PrivilegeInfo {
  type: PrivilegeType;
  /** DataHub's display name (PoliciesConfig). */
  displayName: string;
  /** A sentence of mds's own: written where one says more than the name, else the name said as a sentence. */
  description: string;
}

/** P: platform, R: resource; DataHub's display name; mds's own sentence, where it says more than the name. */
type Row = readonly ['P' | 'R', string, string?];

/** Every privilege of DataHub's PoliciesConfig: its kind and display name (facts), and mds's sentence where it has one. */
const ROWS: Readonly<Record<Privilege, Row>> = {
  MANAGE_POLICIES: ['P', 'Manage Policies', 'Create, edit and delete policies, and assign roles.'],
  MANAGE_INGESTION: ['P', 'Manage Metadata Ingestion'],
  MANAGE_SECRETS: ['P', 'Manage Secrets'],
  MANAGE_USERS_AND_GROUPS: ['P', 'Manage Users & Groups'],
  CREATE_USERS_AND_GROUPS: ['P', 'Create Users & Groups'],
  UPDATE_USERS_AND_GROUPS: ['P', 'Update Users & Groups'],
  CREATE_USERS: ['P', 'Create Users'],
  UPDATE_USERS: ['P', 'Update Users'],
  CREATE_GROUPS: ['P', 'Create Groups'],
  UPDATE_GROUPS: ['P', 'Update Groups'],
  VIEW_ANALYTICS: ['P', 'View Analytics'],
  GET_ANALYTICS_PRIVILEGE: ['P', 'Analytics API access'],
  GENERATE_PERSONAL_ACCESS_TOKENS: ['P', 'Generate Personal Access Tokens', 'Create access tokens that act as oneself.'],
  MANAGE_ACCESS_TOKENS: ['P', 'Manage All Access Tokens', 'Create, list and revoke access tokens of any user.'],
  MANAGE_DOMAINS: ['P', 'Manage Domains', 'Create, edit and delete any domain.'],
  MANAGE_GLOBAL_ANNOUNCEMENTS: ['P', 'Manage Home Page Posts', 'Publish, edit and delete any announcement.'],
  VIEW_TESTS: ['P', 'View Tests'],
  MANAGE_TESTS: ['P', 'Manage Tests'],
  MANAGE_GLOSSARIES: ['P', 'Manage Glossaries'],
  MANAGE_USER_CREDENTIALS: ['P', 'Manage User Credentials'],
  MANAGE_TAGS: ['P', 'Manage Tags', 'Create, edit and delete any tag.'],
  VIEW_MANAGE_TAGS: ['P', 'View Manage Tags', 'Open the page that lists every tag.'],
  CREATE_TAGS: ['P', 'Create Tags', 'Create new tags.'],
  CREATE_DOMAINS: ['P', 'Create Domains', 'Create new domains.'],
  CREATE_GLOBAL_ANNOUNCEMENTS: ['P', 'Create Global Announcements', 'Publish and edit announcements.'],
  MANAGE_GLOBAL_VIEWS: ['P', 'Manage Public Views', 'Create, edit and delete the views shared with everyone, and pick the default one.'],
  MANAGE_GLOBAL_OWNERSHIP_TYPES: ['P', 'Manage Ownership Types', 'Create, edit and delete ownership types.'],
  CREATE_BUSINESS_ATTRIBUTE: ['P', 'Create Business Attribute'],
  MANAGE_BUSINESS_ATTRIBUTE: ['P', 'Manage Business Attribute'],
  MANAGE_CONNECTIONS: ['P', 'Manage Connections'],
  MANAGE_STRUCTURED_PROPERTIES: ['P', 'Manage Structured Properties'],
  VIEW_STRUCTURED_PROPERTIES_PAGE: ['P', 'View Structured Properties'],
  MANAGE_DOCUMENTATION_FORMS: ['P', 'Manage Documentation Forms'],
  MANAGE_FEATURES: ['P', 'Manage Features', 'Turn platform features on or off (documentation propagation, applications).'],
  MANAGE_SYSTEM_OPERATIONS: ['P', 'Manage System Operations', 'Run the operations actions (reindexing, restoring indices).'],
  GET_PLATFORM_EVENTS: ['P', 'Get Platform Events'],
  GET_METADATA_CHANGE_LOG_EVENTS: ['P', 'Get Metadata Change Log Events'],
  MANAGE_HOME_PAGE_TEMPLATES: ['P', 'Manage Home Page Templates'],
  VIEW_ENTITY_PAGE: ['R', 'View Entity Page', 'Read the entity.'],
  EXISTS_ENTITY: ['R', 'Entity Exists'],
  EXECUTE_ENTITY: ['R', 'Execute Entity'],
  CREATE_ENTITY: ['R', 'Create Entity'],
  EDIT_ENTITY_TAGS: ['R', 'Edit Tags', 'Add and remove the tags of the entity.'],
  EDIT_ENTITY_GLOSSARY_TERMS: ['R', 'Edit Glossary Terms'],
  EDIT_ENTITY_OWNERS: ['R', 'Edit Owners', 'Add and remove the owners of the entity.'],
  EDIT_ENTITY_DOCS: ['R', 'Edit Description', 'Change the documentation of the entity.'],
  EDIT_ENTITY_DOC_LINKS: ['R', 'Edit Links', 'Add and remove the links of the entity.'],
  EDIT_ENTITY_STATUS: ['R', 'Edit Status', 'Soft-delete and restore the entity.'],
  EDIT_DOMAINS_PRIVILEGE: ['R', 'Edit Domain', 'Set the domain of the entity.'],
  EDIT_ENTITY_APPLICATIONS_PRIVILEGE: ['R', 'Edit Entity Applications'],
  EDIT_ENTITY_DATA_PRODUCTS: ['R', 'Edit Data Product'],
  EDIT_DEPRECATION_PRIVILEGE: ['R', 'Edit Deprecation', 'Mark the entity deprecated, or not.'],
  EDIT_ENTITY_ASSERTIONS: ['R', 'Edit Assertions'],
  EDIT_ENTITY_OPERATIONS: ['R', 'Edit Operations'],
  EDIT_ENTITY_INCIDENTS: ['R', 'Edit Incidents'],
  EDIT_ENTITY: ['R', 'Edit Entity', 'Make any change to the entity.'],
  DELETE_ENTITY: ['R', 'Delete', 'Delete the entity.'],
  EDIT_LINEAGE: ['R', 'Edit Lineage'],
  EDIT_ENTITY_EMBED: ['R', 'Edit Embedded Content'],
  EDIT_ENTITY_PROPERTIES: ['R', 'Edit Properties'],
  CREATE_ENTITY_ER_MODEL_RELATIONSHIP: ['R', 'Create erModelRelationship'],
  MANAGE_ASSET_SUMMARY: ['R', 'Manage Asset Summary'],
  EDIT_DATASET_COL_TAGS: ['R', 'Edit Dataset Column Tags', 'Add and remove the tags of a column.'],
  EDIT_DATASET_COL_GLOSSARY_TERMS: ['R', 'Edit Dataset Column Glossary Terms'],
  EDIT_DATASET_COL_DESCRIPTION: ['R', 'Edit Dataset Column Descriptions', 'Change the description of a column.'],
  VIEW_DATASET_USAGE: ['R', 'View Dataset Usage', 'Read the usage statistics of the dataset.'],
  VIEW_DATASET_PROFILE: ['R', 'View Dataset Profile', 'Read the profiles of the dataset.'],
  VIEW_DATASET_OPERATIONS: ['R', 'View Dataset Operations'],
  EDIT_ENTITY_QUERIES: ['R', 'Edit Dataset Queries'],
  EDIT_ENTITY_DATA_CONTRACT: ['R', 'Edit Data Contract'],
  DATA_READ_ONLY: ['R', 'Iceberg Catalog Read only data-access'],
  DATA_READ_WRITE: ['R', 'Iceberg Catalog Read-write data-access'],
  DATA_MANAGE_TABLES: ['R', 'Manage Iceberg Tables'],
  DATA_MANAGE_VIEWS: ['R', 'Manage Iceberg Views'],
  DATA_MANAGE_NAMESPACES: ['R', 'Manage Iceberg Namespaces'],
  DATA_LIST_ENTITIES: ['R', 'List Iceberg Tables, Views & Namespaces'],
  EDIT_TAG_COLOR: ['R', 'Edit Tag Color'],
  EDIT_GROUP_MEMBERS: ['R', 'Edit Group Members'],
  EDIT_USER_PROFILE: ['R', 'Edit User Profile'],
  EDIT_CONTACT_INFO: ['R', 'Edit Contact Information'],
  MANAGE_GLOSSARY_CHILDREN: ['R', 'Manage Direct Glossary Children'],
  MANAGE_ALL_GLOSSARY_CHILDREN: ['R', 'Manage All Glossary Children'],
  GET_TIMELINE_PRIVILEGE: ['R', 'Get Timeline API'],
  GET_ENTITY_PRIVILEGE: ['R', 'Get Entity + Relationships API'],
  GET_TIMESERIES_ASPECT_PRIVILEGE: ['R', 'Get Timeseries Aspect API'],
  GET_COUNTS_PRIVILEGE: ['R', 'Get Aspect/Entity Count APIs'],
  RESTORE_INDICES_PRIVILEGE: ['R', 'Restore Indices API'],
  GET_TIMESERIES_INDEX_SIZES_PRIVILEGE: ['R', 'Get Timeseries index sizes API', 'Read the sizes of the time-series indices.'],
  TRUNCATE_TIMESERIES_INDEX_PRIVILEGE: ['R', 'Truncate timeseries aspect index size API', 'Delete old time-series points.'],
  GET_ES_TASK_STATUS_PRIVILEGE: ['R', 'Get ES task status API', 'Follow a long-running index task.'],
  ES_EXPLAIN_QUERY_PRIVILEGE: ['R', 'Explain ElasticSearch Query API'],
  SEARCH_PRIVILEGE: ['R', 'Search API'],
  SET_WRITEABLE_PRIVILEGE: ['R', 'Enable/Disable Writeability API'],
  APPLY_RETENTION_PRIVILEGE: ['R', 'Apply Retention API'],
  PRODUCE_PLATFORM_EVENT_PRIVILEGE: ['R', 'Produce Platform Event API'],
  EDIT_DATASET_COL_BUSINESS_ATTRIBUTE_PRIVILEGE: ['R', 'Edit Dataset Column Business Attribute'],
  MANAGE_DATA_PRODUCTS: ['R', 'Manage Data Products'],
};

const info = ([kind, displayName, sentence]: Row): PrivilegeInfo => {
  const type = kind === 'P' ? 'PLATFORM' : 'RESOURCE';
  const named = `${displayName[0]!.toLowerCase()}${displayName.slice(1)}.`;
  return {
    type,
    displayName,
    description: sentence ?? (type === 'PLATFORM' ? `Platform-wide: ${named}` : `On the resources a policy selects: ${named}`),
  };
};

/** Every privilege as data: the one catalog the policy pages and `appConfig.policiesConfig` list from. */
export const PRIVILEGE_INFO: Readonly<Record<Privilege, PrivilegeInfo>> = Object.freeze(
  Object.fromEntries(Object.entries(ROWS).map(([name, row]) => [name, info(row)])) as Record<Privilege, PrivilegeInfo>,
);
