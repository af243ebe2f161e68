import type { Privilege } from './privileges';

/** Whether a privilege is granted on the platform (no resource) or on the resources a metadata policy selects. */
export type PrivilegeType = 'PLATFORM' | 'RESOURCE';

export interface PrivilegeInfo {
  type: PrivilegeType;
  /** DataHub's display name (PoliciesConfig). */
  displayName: string;
  description: string;
}

/** Every privilege of DataHub's PoliciesConfig, as data: its kind and display name (facts), a description of mds's own. */
export const PRIVILEGE_INFO: Readonly<Record<Privilege, PrivilegeInfo>> = {
  MANAGE_POLICIES: { type: 'PLATFORM', displayName: 'Manage Policies', description: 'Platform-wide: manage Policies.' },
  MANAGE_INGESTION: {
    type: 'PLATFORM',
    displayName: 'Manage Metadata Ingestion',
    description: 'Platform-wide: manage Metadata Ingestion.',
  },
  MANAGE_SECRETS: { type: 'PLATFORM', displayName: 'Manage Secrets', description: 'Platform-wide: manage Secrets.' },
  MANAGE_USERS_AND_GROUPS: { type: 'PLATFORM', displayName: 'Manage Users & Groups', description: 'Platform-wide: manage Users & Groups.' },
  CREATE_USERS_AND_GROUPS: { type: 'PLATFORM', displayName: 'Create Users & Groups', description: 'Platform-wide: create Users & Groups.' },
  UPDATE_USERS_AND_GROUPS: { type: 'PLATFORM', displayName: 'Update Users & Groups', description: 'Platform-wide: update Users & Groups.' },
  CREATE_USERS: { type: 'PLATFORM', displayName: 'Create Users', description: 'Platform-wide: create Users.' },
  UPDATE_USERS: { type: 'PLATFORM', displayName: 'Update Users', description: 'Platform-wide: update Users.' },
  CREATE_GROUPS: { type: 'PLATFORM', displayName: 'Create Groups', description: 'Platform-wide: create Groups.' },
  UPDATE_GROUPS: { type: 'PLATFORM', displayName: 'Update Groups', description: 'Platform-wide: update Groups.' },
  VIEW_ANALYTICS: { type: 'PLATFORM', displayName: 'View Analytics', description: 'Platform-wide: view Analytics.' },
  GET_ANALYTICS_PRIVILEGE: { type: 'PLATFORM', displayName: 'Analytics API access', description: 'Platform-wide: analytics API access.' },
  GENERATE_PERSONAL_ACCESS_TOKENS: {
    type: 'PLATFORM',
    displayName: 'Generate Personal Access Tokens',
    description: 'Platform-wide: generate Personal Access Tokens.',
  },
  MANAGE_ACCESS_TOKENS: {
    type: 'PLATFORM',
    displayName: 'Manage All Access Tokens',
    description: 'Platform-wide: manage All Access Tokens.',
  },
  MANAGE_DOMAINS: { type: 'PLATFORM', displayName: 'Manage Domains', description: 'Platform-wide: manage Domains.' },
  MANAGE_GLOBAL_ANNOUNCEMENTS: {
    type: 'PLATFORM',
    displayName: 'Manage Home Page Posts',
    description: 'Platform-wide: manage Home Page Posts.',
  },
  VIEW_TESTS: { type: 'PLATFORM', displayName: 'View Tests', description: 'Platform-wide: view Tests.' },
  MANAGE_TESTS: { type: 'PLATFORM', displayName: 'Manage Tests', description: 'Platform-wide: manage Tests.' },
  MANAGE_GLOSSARIES: { type: 'PLATFORM', displayName: 'Manage Glossaries', description: 'Platform-wide: manage Glossaries.' },
  MANAGE_USER_CREDENTIALS: {
    type: 'PLATFORM',
    displayName: 'Manage User Credentials',
    description: 'Platform-wide: manage User Credentials.',
  },
  MANAGE_TAGS: { type: 'PLATFORM', displayName: 'Manage Tags', description: 'Platform-wide: manage Tags.' },
  VIEW_MANAGE_TAGS: { type: 'PLATFORM', displayName: 'View Manage Tags', description: 'Platform-wide: view Manage Tags.' },
  CREATE_TAGS: { type: 'PLATFORM', displayName: 'Create Tags', description: 'Platform-wide: create Tags.' },
  CREATE_DOMAINS: { type: 'PLATFORM', displayName: 'Create Domains', description: 'Platform-wide: create Domains.' },
  CREATE_GLOBAL_ANNOUNCEMENTS: {
    type: 'PLATFORM',
    displayName: 'Create Global Announcements',
    description: 'Platform-wide: create Global Announcements.',
  },
  MANAGE_GLOBAL_VIEWS: { type: 'PLATFORM', displayName: 'Manage Public Views', description: 'Platform-wide: manage Public Views.' },
  MANAGE_GLOBAL_OWNERSHIP_TYPES: {
    type: 'PLATFORM',
    displayName: 'Manage Ownership Types',
    description: 'Platform-wide: manage Ownership Types.',
  },
  CREATE_BUSINESS_ATTRIBUTE: {
    type: 'PLATFORM',
    displayName: 'Create Business Attribute',
    description: 'Platform-wide: create Business Attribute.',
  },
  MANAGE_BUSINESS_ATTRIBUTE: {
    type: 'PLATFORM',
    displayName: 'Manage Business Attribute',
    description: 'Platform-wide: manage Business Attribute.',
  },
  MANAGE_CONNECTIONS: { type: 'PLATFORM', displayName: 'Manage Connections', description: 'Platform-wide: manage Connections.' },
  MANAGE_STRUCTURED_PROPERTIES: {
    type: 'PLATFORM',
    displayName: 'Manage Structured Properties',
    description: 'Platform-wide: manage Structured Properties.',
  },
  VIEW_STRUCTURED_PROPERTIES_PAGE: {
    type: 'PLATFORM',
    displayName: 'View Structured Properties',
    description: 'Platform-wide: view Structured Properties.',
  },
  MANAGE_DOCUMENTATION_FORMS: {
    type: 'PLATFORM',
    displayName: 'Manage Documentation Forms',
    description: 'Platform-wide: manage Documentation Forms.',
  },
  MANAGE_FEATURES: { type: 'PLATFORM', displayName: 'Manage Features', description: 'Platform-wide: manage Features.' },
  MANAGE_SYSTEM_OPERATIONS: {
    type: 'PLATFORM',
    displayName: 'Manage System Operations',
    description: 'Platform-wide: manage System Operations.',
  },
  GET_PLATFORM_EVENTS: { type: 'PLATFORM', displayName: 'Get Platform Events', description: 'Platform-wide: get Platform Events.' },
  GET_METADATA_CHANGE_LOG_EVENTS: {
    type: 'PLATFORM',
    displayName: 'Get Metadata Change Log Events',
    description: 'Platform-wide: get Metadata Change Log Events.',
  },
  MANAGE_HOME_PAGE_TEMPLATES: {
    type: 'PLATFORM',
    displayName: 'Manage Home Page Templates',
    description: 'Platform-wide: manage Home Page Templates.',
  },
  VIEW_ENTITY_PAGE: {
    type: 'RESOURCE',
    displayName: 'View Entity Page',
    description: 'On the resources a policy selects: view Entity Page.',
  },
  EXISTS_ENTITY: { type: 'RESOURCE', displayName: 'Entity Exists', description: 'On the resources a policy selects: entity Exists.' },
  EXECUTE_ENTITY: { type: 'RESOURCE', displayName: 'Execute Entity', description: 'On the resources a policy selects: execute Entity.' },
  CREATE_ENTITY: { type: 'RESOURCE', displayName: 'Create Entity', description: 'On the resources a policy selects: create Entity.' },
  EDIT_ENTITY_TAGS: { type: 'RESOURCE', displayName: 'Edit Tags', description: 'On the resources a policy selects: edit Tags.' },
  EDIT_ENTITY_GLOSSARY_TERMS: {
    type: 'RESOURCE',
    displayName: 'Edit Glossary Terms',
    description: 'On the resources a policy selects: edit Glossary Terms.',
  },
  EDIT_ENTITY_OWNERS: { type: 'RESOURCE', displayName: 'Edit Owners', description: 'On the resources a policy selects: edit Owners.' },
  EDIT_ENTITY_DOCS: {
    type: 'RESOURCE',
    displayName: 'Edit Description',
    description: 'On the resources a policy selects: edit Description.',
  },
  EDIT_ENTITY_DOC_LINKS: { type: 'RESOURCE', displayName: 'Edit Links', description: 'On the resources a policy selects: edit Links.' },
  EDIT_ENTITY_STATUS: { type: 'RESOURCE', displayName: 'Edit Status', description: 'On the resources a policy selects: edit Status.' },
  EDIT_DOMAINS_PRIVILEGE: { type: 'RESOURCE', displayName: 'Edit Domain', description: 'On the resources a policy selects: edit Domain.' },
  EDIT_ENTITY_APPLICATIONS_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Edit Entity Applications',
    description: 'On the resources a policy selects: edit Entity Applications.',
  },
  EDIT_ENTITY_DATA_PRODUCTS: {
    type: 'RESOURCE',
    displayName: 'Edit Data Product',
    description: 'On the resources a policy selects: edit Data Product.',
  },
  EDIT_DEPRECATION_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Edit Deprecation',
    description: 'On the resources a policy selects: edit Deprecation.',
  },
  EDIT_ENTITY_ASSERTIONS: {
    type: 'RESOURCE',
    displayName: 'Edit Assertions',
    description: 'On the resources a policy selects: edit Assertions.',
  },
  EDIT_ENTITY_OPERATIONS: {
    type: 'RESOURCE',
    displayName: 'Edit Operations',
    description: 'On the resources a policy selects: edit Operations.',
  },
  EDIT_ENTITY_INCIDENTS: {
    type: 'RESOURCE',
    displayName: 'Edit Incidents',
    description: 'On the resources a policy selects: edit Incidents.',
  },
  EDIT_ENTITY: { type: 'RESOURCE', displayName: 'Edit Entity', description: 'On the resources a policy selects: edit Entity.' },
  DELETE_ENTITY: { type: 'RESOURCE', displayName: 'Delete', description: 'On the resources a policy selects: delete.' },
  EDIT_LINEAGE: { type: 'RESOURCE', displayName: 'Edit Lineage', description: 'On the resources a policy selects: edit Lineage.' },
  EDIT_ENTITY_EMBED: {
    type: 'RESOURCE',
    displayName: 'Edit Embedded Content',
    description: 'On the resources a policy selects: edit Embedded Content.',
  },
  EDIT_ENTITY_PROPERTIES: {
    type: 'RESOURCE',
    displayName: 'Edit Properties',
    description: 'On the resources a policy selects: edit Properties.',
  },
  CREATE_ENTITY_ER_MODEL_RELATIONSHIP: {
    type: 'RESOURCE',
    displayName: 'Create erModelRelationship',
    description: 'On the resources a policy selects: create erModelRelationship.',
  },
  MANAGE_ASSET_SUMMARY: {
    type: 'RESOURCE',
    displayName: 'Manage Asset Summary',
    description: 'On the resources a policy selects: manage Asset Summary.',
  },
  EDIT_DATASET_COL_TAGS: {
    type: 'RESOURCE',
    displayName: 'Edit Dataset Column Tags',
    description: 'On the resources a policy selects: edit Dataset Column Tags.',
  },
  EDIT_DATASET_COL_GLOSSARY_TERMS: {
    type: 'RESOURCE',
    displayName: 'Edit Dataset Column Glossary Terms',
    description: 'On the resources a policy selects: edit Dataset Column Glossary Terms.',
  },
  EDIT_DATASET_COL_DESCRIPTION: {
    type: 'RESOURCE',
    displayName: 'Edit Dataset Column Descriptions',
    description: 'On the resources a policy selects: edit Dataset Column Descriptions.',
  },
  VIEW_DATASET_USAGE: {
    type: 'RESOURCE',
    displayName: 'View Dataset Usage',
    description: 'On the resources a policy selects: view Dataset Usage.',
  },
  VIEW_DATASET_PROFILE: {
    type: 'RESOURCE',
    displayName: 'View Dataset Profile',
    description: 'On the resources a policy selects: view Dataset Profile.',
  },
  VIEW_DATASET_OPERATIONS: {
    type: 'RESOURCE',
    displayName: 'View Dataset Operations',
    description: 'On the resources a policy selects: view Dataset Operations.',
  },
  EDIT_ENTITY_QUERIES: {
    type: 'RESOURCE',
    displayName: 'Edit Dataset Queries',
    description: 'On the resources a policy selects: edit Dataset Queries.',
  },
  EDIT_ENTITY_DATA_CONTRACT: {
    type: 'RESOURCE',
    displayName: 'Edit Data Contract',
    description: 'On the resources a policy selects: edit Data Contract.',
  },
  DATA_READ_ONLY: {
    type: 'RESOURCE',
    displayName: 'Iceberg Catalog Read only data-access',
    description: 'On the resources a policy selects: iceberg Catalog Read only data-access.',
  },
  DATA_READ_WRITE: {
    type: 'RESOURCE',
    displayName: 'Iceberg Catalog Read-write data-access',
    description: 'On the resources a policy selects: iceberg Catalog Read-write data-access.',
  },
  DATA_MANAGE_TABLES: {
    type: 'RESOURCE',
    displayName: 'Manage Iceberg Tables',
    description: 'On the resources a policy selects: manage Iceberg Tables.',
  },
  DATA_MANAGE_VIEWS: {
    type: 'RESOURCE',
    displayName: 'Manage Iceberg Views',
    description: 'On the resources a policy selects: manage Iceberg Views.',
  },
  DATA_MANAGE_NAMESPACES: {
    type: 'RESOURCE',
    displayName: 'Manage Iceberg Namespaces',
    description: 'On the resources a policy selects: manage Iceberg Namespaces.',
  },
  DATA_LIST_ENTITIES: {
    type: 'RESOURCE',
    displayName: 'List Iceberg Tables, Views & Namespaces',
    description: 'On the resources a policy selects: list Iceberg Tables, Views & Namespaces.',
  },
  EDIT_TAG_COLOR: { type: 'RESOURCE', displayName: 'Edit Tag Color', description: 'On the resources a policy selects: edit Tag Color.' },
  EDIT_GROUP_MEMBERS: {
    type: 'RESOURCE',
    displayName: 'Edit Group Members',
    description: 'On the resources a policy selects: edit Group Members.',
  },
  EDIT_USER_PROFILE: {
    type: 'RESOURCE',
    displayName: 'Edit User Profile',
    description: 'On the resources a policy selects: edit User Profile.',
  },
  EDIT_CONTACT_INFO: {
    type: 'RESOURCE',
    displayName: 'Edit Contact Information',
    description: 'On the resources a policy selects: edit Contact Information.',
  },
  MANAGE_GLOSSARY_CHILDREN: {
    type: 'RESOURCE',
    displayName: 'Manage Direct Glossary Children',
    description: 'On the resources a policy selects: manage Direct Glossary Children.',
  },
  MANAGE_ALL_GLOSSARY_CHILDREN: {
    type: 'RESOURCE',
    displayName: 'Manage All Glossary Children',
    description: 'On the resources a policy selects: manage All Glossary Children.',
  },
  GET_TIMELINE_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Get Timeline API',
    description: 'On the resources a policy selects: get Timeline API.',
  },
  GET_ENTITY_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Get Entity + Relationships API',
    description: 'On the resources a policy selects: get Entity + Relationships API.',
  },
  GET_TIMESERIES_ASPECT_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Get Timeseries Aspect API',
    description: 'On the resources a policy selects: get Timeseries Aspect API.',
  },
  GET_COUNTS_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Get Aspect/Entity Count APIs',
    description: 'On the resources a policy selects: get Aspect/Entity Count APIs.',
  },
  RESTORE_INDICES_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Restore Indices API',
    description: 'On the resources a policy selects: restore Indices API.',
  },
  GET_TIMESERIES_INDEX_SIZES_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Get Timeseries index sizes API',
    description: 'On the resources a policy selects: get Timeseries index sizes API.',
  },
  TRUNCATE_TIMESERIES_INDEX_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Truncate timeseries aspect index size API',
    description: 'On the resources a policy selects: truncate timeseries aspect index size API.',
  },
  GET_ES_TASK_STATUS_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Get ES task status API',
    description: 'On the resources a policy selects: get ES task status API.',
  },
  ES_EXPLAIN_QUERY_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Explain ElasticSearch Query API',
    description: 'On the resources a policy selects: explain ElasticSearch Query API.',
  },
  SEARCH_PRIVILEGE: { type: 'RESOURCE', displayName: 'Search API', description: 'On the resources a policy selects: search API.' },
  SET_WRITEABLE_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Enable/Disable Writeability API',
    description: 'On the resources a policy selects: enable/Disable Writeability API.',
  },
  APPLY_RETENTION_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Apply Retention API',
    description: 'On the resources a policy selects: apply Retention API.',
  },
  PRODUCE_PLATFORM_EVENT_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Produce Platform Event API',
    description: 'On the resources a policy selects: produce Platform Event API.',
  },
  EDIT_DATASET_COL_BUSINESS_ATTRIBUTE_PRIVILEGE: {
    type: 'RESOURCE',
    displayName: 'Edit Dataset Column Business Attribute',
    description: 'On the resources a policy selects: edit Dataset Column Business Attribute.',
  },
  MANAGE_DATA_PRODUCTS: {
    type: 'RESOURCE',
    displayName: 'Manage Data Products',
    description: 'On the resources a policy selects: manage Data Products.',
  },
};
