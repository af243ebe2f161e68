import { ENTITY_SPECS } from './registry';

/**
 * Declarative shapes of aspect values (entities-api §5), checked by `validateAspect` (validate.ts).
 * A record lists its fields by name; a trailing `!` marks a required one (the spec's ✓). Fields with a PDL default
 * are optional here, as DataHub fills the default. Unknown fields are allowed everywhere (kept as written).
 */
export type Primitive = 'string' | 'long' | 'int' | 'float' | 'boolean' | 'urn' | 'any';
export type Shape =
  | Primitive
  | { readonly enum: readonly string[] }
  | { readonly array: Shape }
  | { readonly map: Shape }
  | { readonly record: Readonly<Record<string, Shape>> }
  /** An object with exactly one key, the member's name (full class name, or the primitive's name). */
  | { readonly union: Readonly<Record<string, Shape>> };

type Fields = Record<string, Shape>;
const record = (fields: Fields): Shape => ({ record: fields });
const array = (items: Shape): Shape => ({ array: items });
const map = (values: Shape): Shape => ({ map: values });
const enumOf = (symbols: string): Shape => ({ enum: symbols.split(' ') });
/** Union members under a common package prefix (`com.linkedin.schema.` + name). */
const unionOf = (prefix: string, members: Fields): Shape => ({
  union: Object.fromEntries(Object.entries(members).map(([name, shape]) => [prefix + name, shape])),
});

// Common records.
export const AuditStamp = record({ 'time!': 'long', 'actor!': 'urn', impersonator: 'urn', message: 'string' });
export const TimeStamp = record({ 'time!': 'long', actor: 'urn' });
/** ChangeAuditStamps' fields, spread into the aspects that embed them; `created`/`lastModified` have defaults. */
const CHANGE_AUDIT: Fields = { created: AuditStamp, lastModified: AuditStamp, deleted: AuditStamp };
export const ChangeAuditStamps = record(CHANGE_AUDIT);
/** CustomProperties + ExternalReference, shared by the *Info / *Properties aspects. */
const CUSTOM: Fields = { customProperties: map('string'), externalUrl: 'string' };
const NAMED_TIMES: Fields = { created: TimeStamp, lastModified: TimeStamp };

export const MetadataAttribution = record({ 'time!': 'long', 'actor!': 'urn', source: 'urn', sourceDetail: map('string') });
export const TagAssociation = record({ 'tag!': 'urn', context: 'string', attribution: MetadataAttribution });
export const GlobalTags = record({ 'tags!': array(TagAssociation) });
export const GlossaryTermAssociation = record({ 'urn!': 'urn', actor: 'urn', context: 'string', attribution: MetadataAttribution });
export const GlossaryTerms = record({ 'terms!': array(GlossaryTermAssociation), 'auditStamp!': AuditStamp });
export const Edge = record({
  'destinationUrn!': 'urn',
  sourceUrn: 'urn',
  created: AuditStamp,
  lastModified: AuditStamp,
  properties: map('string'),
  confidenceScore: 'float',
});

const FABRIC_TYPE = enumOf('DEV TEST QA UAT EI PRE STG NON_PROD PROD CORP RVW PRD TST SIT SBX SANDBOX CERT');
export const OWNERSHIP_TYPES =
  'TECHNICAL_OWNER BUSINESS_OWNER DATA_STEWARD NONE CUSTOM DEVELOPER DATAOWNER DELEGATE PRODUCER CONSUMER STAKEHOLDER';
export const Owner = record({
  'owner!': 'urn',
  'type!': enumOf(OWNERSHIP_TYPES),
  typeUrn: 'urn',
  source: record({
    'type!': enumOf('AUDIT DATABASE FILE_SYSTEM ISSUE_TRACKING_SYSTEM MANUAL SERVICE SOURCE_CONTROL OTHER'),
    url: 'string',
  }),
  attribution: MetadataAttribution,
});

const FineGrainedLineage = record({
  'upstreamType!': enumOf('FIELD_SET DATASET NONE'),
  upstreams: array('urn'),
  'downstreamType!': enumOf('FIELD FIELD_SET'),
  downstreams: array('urn'),
  transformOperation: 'string',
  confidenceScore: 'float',
  query: 'urn',
});

// schemaMetadata: the platform schema and each field's type are unions of `com.linkedin.schema.` records.
const PlatformSchema = unionOf('com.linkedin.schema.', {
  EspressoSchema: record({ 'documentSchema!': 'string', 'tableSchema!': 'string' }),
  OracleDDL: record({ 'tableSchema!': 'string' }),
  MySqlDDL: record({ 'tableSchema!': 'string' }),
  PrestoDDL: record({ 'rawSchema!': 'string' }),
  KafkaSchema: record({ 'documentSchema!': 'string', documentSchemaType: 'string', keySchema: 'string' }),
  BinaryJsonSchema: record({ 'schema!': 'string' }),
  OrcSchema: record({ 'schema!': 'string' }),
  Schemaless: record({}),
  KeyValueSchema: record({ 'keySchema!': 'string', 'valueSchema!': 'string' }),
  OtherSchema: record({ 'rawSchema!': 'string' }),
});
const EMPTY = record({});
const FieldDataType = unionOf('com.linkedin.schema.', {
  BooleanType: EMPTY,
  FixedType: EMPTY,
  StringType: EMPTY,
  BytesType: EMPTY,
  NumberType: EMPTY,
  DateType: EMPTY,
  TimeType: EMPTY,
  EnumType: EMPTY,
  NullType: EMPTY,
  RecordType: EMPTY,
  MapType: record({ keyType: 'string', valueType: 'string' }),
  ArrayType: record({ nestedType: array('string') }),
  UnionType: record({ nestedTypes: array('string') }),
});
export const SchemaField = record({
  'fieldPath!': 'string',
  jsonPath: 'string',
  nullable: 'boolean',
  description: 'string',
  label: 'string',
  created: AuditStamp,
  lastModified: AuditStamp,
  'type!': record({ 'type!': FieldDataType }),
  'nativeDataType!': 'string',
  recursive: 'boolean',
  globalTags: GlobalTags,
  glossaryTerms: GlossaryTerms,
  isPartOfKey: 'boolean',
  isPartitioningKey: 'boolean',
  jsonProps: 'string',
});
const ForeignKeyConstraint = record({
  'name!': 'string',
  'foreignFields!': array('urn'),
  'sourceFields!': array('urn'),
  'foreignDataset!': 'urn',
});

const ACCESS = enumOf('PUBLIC PRIVATE');

/** Versioned aspects of §5, by aspect name. */
const VERSIONED: Record<string, Fields> = {
  datasetProperties: {
    ...CUSTOM,
    name: 'string',
    qualifiedName: 'string',
    description: 'string',
    uri: 'string',
    ...NAMED_TIMES,
    tags: array('string'),
  },
  editableDatasetProperties: { ...CHANGE_AUDIT, description: 'string', name: 'string' },
  schemaMetadata: {
    'schemaName!': 'string',
    'platform!': 'urn',
    'version!': 'long',
    ...CHANGE_AUDIT,
    dataset: 'urn',
    cluster: 'string',
    'hash!': 'string',
    'platformSchema!': PlatformSchema,
    'fields!': array(SchemaField),
    primaryKeys: array('string'),
    foreignKeys: array(ForeignKeyConstraint),
    foreignKeysSpecs: map('any'),
  },
  editableSchemaMetadata: {
    ...CHANGE_AUDIT,
    'editableSchemaFieldInfo!': array(
      record({ 'fieldPath!': 'string', description: 'string', globalTags: GlobalTags, glossaryTerms: GlossaryTerms }),
    ),
  },
  globalTags: { 'tags!': array(TagAssociation) },
  glossaryTerms: { 'terms!': array(GlossaryTermAssociation), 'auditStamp!': AuditStamp },
  // ownerTypes: ownership-type URN → owner URNs.
  ownership: { 'owners!': array(Owner), ownerTypes: map(array('urn')), lastModified: AuditStamp },
  status: { removed: 'boolean' },
  subTypes: { 'typeNames!': array('string') },
  container: { 'container!': 'urn' },
  browsePathsV2: { 'path!': array(record({ 'id!': 'string', urn: 'urn' })) },
  browsePaths: { 'paths!': array('string') },
  dataPlatformInstance: { 'platform!': 'urn', instance: 'urn' },
  domains: { 'domains!': array('urn') },
  deprecation: { 'deprecated!': 'boolean', decommissionTime: 'long', 'note!': 'string', 'actor!': 'urn', replacement: 'urn' },
  upstreamLineage: {
    'upstreams!': array(
      record({
        auditStamp: AuditStamp,
        created: AuditStamp,
        'dataset!': 'urn',
        'type!': enumOf('COPY TRANSFORMED VIEW'),
        properties: map('string'),
        query: 'urn',
      }),
    ),
    fineGrainedLineages: array(FineGrainedLineage),
  },
  institutionalMemory: { 'elements!': array(record({ 'url!': 'string', 'description!': 'string', 'createStamp!': AuditStamp })) },
  dashboardInfo: {
    ...CUSTOM,
    'title!': 'string',
    'description!': 'string',
    charts: array('urn'),
    chartEdges: array(Edge),
    datasets: array('urn'),
    datasetEdges: array(Edge),
    'lastModified!': ChangeAuditStamps,
    dashboardUrl: 'string',
    access: ACCESS,
    lastRefreshed: 'long',
  },
  chartInfo: {
    ...CUSTOM,
    'title!': 'string',
    'description!': 'string',
    'lastModified!': ChangeAuditStamps,
    chartUrl: 'string',
    // ChartDataSourceType: a union whose one member, a typeref'd dataset URN, is spelled `string` on the wire.
    inputs: array({ union: { string: 'urn' } }),
    inputEdges: array(Edge),
    type: enumOf('BAR PIE SCATTER TABLE TEXT LINE AREA HISTOGRAM BOX_PLOT WORD_CLOUD COHORT'),
    access: ACCESS,
    lastRefreshed: 'long',
  },
  dataFlowInfo: { ...CUSTOM, 'name!': 'string', description: 'string', project: 'string', ...NAMED_TIMES, env: FABRIC_TYPE },
  dataJobInfo: {
    ...CUSTOM,
    'name!': 'string',
    description: 'string',
    'type!': {
      union: {
        'com.linkedin.datajob.azkaban.AzkabanJobType': enumOf('COMMAND HADOOP_JAVA HADOOP_SHELL HIVE PIG SQL GLUE'),
        string: 'string',
      },
    },
    flowUrn: 'urn',
    ...NAMED_TIMES,
    status: enumOf('STARTING IN_PROGRESS STOPPING STOPPED COMPLETED FAILED UNKNOWN SKIPPED'),
  },
  dataJobInputOutput: {
    'inputDatasets!': array('urn'),
    'outputDatasets!': array('urn'),
    inputDatasetEdges: array(Edge),
    outputDatasetEdges: array(Edge),
    inputDatajobs: array('urn'),
    inputDatajobEdges: array(Edge),
    inputDatasetFields: array('urn'),
    outputDatasetFields: array('urn'),
    fineGrainedLineages: array(FineGrainedLineage),
  },
  containerProperties: { ...CUSTOM, 'name!': 'string', qualifiedName: 'string', description: 'string', env: FABRIC_TYPE, ...NAMED_TIMES },
  editableContainerProperties: { description: 'string' },
  corpUserInfo: {
    customProperties: map('string'),
    'active!': 'boolean',
    displayName: 'string',
    email: 'string',
    title: 'string',
    managerUrn: 'urn',
    departmentId: 'long',
    departmentName: 'string',
    firstName: 'string',
    lastName: 'string',
    fullName: 'string',
    countryCode: 'string',
    system: 'boolean',
  },
  corpGroupInfo: {
    displayName: 'string',
    email: 'string',
    'admins!': array('urn'),
    'members!': array('urn'),
    'groups!': array('urn'),
    description: 'string',
    slack: 'string',
  },
  tagProperties: { 'name!': 'string', description: 'string', colorHex: 'string' },
  domainProperties: { customProperties: map('string'), 'name!': 'string', description: 'string', created: AuditStamp, parentDomain: 'urn' },
  dataPlatformInfo: {
    'name!': 'string',
    displayName: 'string',
    'type!': enumOf(
      'FILE_SYSTEM KEY_VALUE_STORE MESSAGE_BROKER OBJECT_STORE OLAP_DATASTORE OTHERS QUERY_ENGINE RELATIONAL_DB SEARCH_ENGINE',
    ),
    'datasetNameDelimiter!': 'string',
    logoUrl: 'string',
  },
};

/** Key aspects: the entity's key fields, all strings and required, except `containerKey.guid` (optional in the PDL). */
const KEYS: Record<string, Fields> = Object.fromEntries(
  ENTITY_SPECS.map((e) => [
    e.keyAspect,
    Object.fromEntries(e.keyFields.map((f) => [e.keyAspect === 'containerKey' ? f : `${f}!`, 'string' as const])),
  ]),
);

/** Every aspect with a declared shape; aspects outside §5 (siblings, embed, forms, …) have none and accept any value. */
export const ASPECT_SHAPES: ReadonlyMap<string, Shape> = new Map(
  Object.entries({ ...KEYS, ...VERSIONED }).map(([name, fields]) => [name, record(fields)]),
);
