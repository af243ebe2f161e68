import { describe, expect, it } from 'vitest';
import { ASPECT_SHAPES } from '../src/aspect-schemas';
import { validateAspect } from '../src/validate';

const STAMP = { time: 0, actor: 'urn:li:corpuser:unknown' };
const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const EDGE = { destinationUrn: DATASET, created: STAMP, properties: { k: 'v' } };

// The schemaMetadata example of entities-api §5 (the other examples below are its §5-§6 ones, as valid in DataHub's model).
const SCHEMA_METADATA = {
  schemaName: 'db.orders',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  created: STAMP,
  lastModified: STAMP,
  platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
  fields: [
    {
      fieldPath: 'id',
      nullable: false,
      type: { type: { 'com.linkedin.schema.NumberType': {} } },
      nativeDataType: 'bigint',
      recursive: false,
      isPartOfKey: true,
      globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
    },
  ],
};
const OWNERSHIP = {
  owners: [{ owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' }],
  lastModified: { time: 0, actor: 'urn:li:corpuser:jdoe' },
};

/** One valid value per aspect of §5 (examples of §5-§6 where the spec has them). */
const VALID: Record<string, unknown> = {
  datasetProperties: {
    customProperties: { owner_team: 'core' },
    externalUrl: 'https://x',
    name: 'orders',
    qualifiedName: 'db.orders',
    description: 'Orders',
    created: { time: 1 },
    tags: [],
  },
  editableDatasetProperties: { created: STAMP, lastModified: STAMP, description: 'edited' },
  schemaMetadata: SCHEMA_METADATA,
  editableSchemaMetadata: {
    editableSchemaFieldInfo: [{ fieldPath: 'id', description: 'key', globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }],
  },
  globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
  glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:revenue' }], auditStamp: STAMP },
  ownership: OWNERSHIP,
  status: { removed: false },
  subTypes: { typeNames: ['Table'] },
  container: { container: 'urn:li:container:b41c14bc5cb3ccfbb0433c8cbdef2992' },
  browsePathsV2: { path: [{ id: 'prod' }, { id: 'db', urn: 'urn:li:container:db' }] },
  browsePaths: { paths: ['/prod/hive/db'] },
  dataPlatformInstance: { platform: 'urn:li:dataPlatform:hive', instance: 'urn:li:dataPlatformInstance:(urn:li:dataPlatform:hive,eu)' },
  domains: { domains: ['urn:li:domain:marketing'] },
  deprecation: { deprecated: true, decommissionTime: 1700000000000, note: 'use v2', actor: 'urn:li:corpuser:jdoe' },
  upstreamLineage: {
    upstreams: [{ auditStamp: STAMP, dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.raw,PROD)', type: 'TRANSFORMED' }],
    fineGrainedLineages: [
      { upstreamType: 'FIELD_SET', upstreams: ['urn:li:schemaField:(x,a)'], downstreamType: 'FIELD', confidenceScore: 1 },
    ],
  },
  institutionalMemory: { elements: [{ url: 'https://wiki/orders', description: 'Runbook', createStamp: STAMP }] },
  dashboardInfo: {
    title: 'Sales',
    description: '',
    charts: ['urn:li:chart:(looker,c1)'],
    datasetEdges: [EDGE],
    lastModified: { created: STAMP, lastModified: STAMP },
    access: 'PUBLIC',
    lastRefreshed: 1,
  },
  chartInfo: {
    title: 'Revenue',
    description: '',
    lastModified: { created: STAMP, lastModified: STAMP },
    inputs: [{ string: DATASET }],
    inputEdges: [EDGE],
    type: 'BAR',
  },
  dataFlowInfo: { name: 'daily_etl', project: 'etl', env: 'PROD', created: { time: 1 } },
  dataJobInfo: {
    name: 'load_orders',
    type: { string: 'COMMAND' },
    flowUrn: 'urn:li:dataFlow:(airflow,daily_etl,prod)',
    status: 'COMPLETED',
  },
  dataJobInputOutput: {
    inputDatasets: [],
    outputDatasets: [],
    inputDatasetEdges: [EDGE],
    inputDatajobs: ['urn:li:dataJob:(urn:li:dataFlow:(airflow,daily_etl,prod),extract)'],
  },
  containerProperties: { name: 'db', env: 'PROD', customProperties: {} },
  editableContainerProperties: { description: 'the db' },
  corpUserInfo: { active: true, displayName: 'Jane Doe', email: 'jdoe@example.com', departmentId: 12, system: false },
  corpGroupInfo: { displayName: 'Data Eng', admins: [], members: ['urn:li:corpuser:jdoe'], groups: [] },
  tagProperties: { name: 'pii', colorHex: '#ff0000' },
  domainProperties: { name: 'Marketing', created: STAMP, parentDomain: 'urn:li:domain:root' },
  dataPlatformInfo: { name: 'hive', type: 'FILE_SYSTEM', datasetNameDelimiter: '.', logoUrl: 'https://x/hive.png' },
  // Key aspects: the key fields as strings (entities-api §7.2 shows datasetKey).
  datasetKey: { platform: 'urn:li:dataPlatform:hive', name: 'db.orders', origin: 'PROD' },
  corpUserKey: { username: 'jdoe' },
  containerKey: {},
};

describe('validateAspect: valid values', () => {
  it.each(Object.entries(VALID))('%s', (aspect, value) => {
    expect(validateAspect(aspect, value)).toEqual([]);
  });

  it('has a shape for every aspect of the registry, keys and time series included', () => {
    expect(ASPECT_SHAPES.size).toBe(220);
    expect(ASPECT_SHAPES.get('datasetKey')).toEqual({
      record: { 'platform!': 'urn', 'name!': 'string', 'origin!': { enum: expect.any(Array) } },
    });
  });

  it('accepts the other union spellings: AzkabanJobType, field types with nested fields, Kafka schemas', () => {
    expect(validateAspect('dataJobInfo', { name: 'j', type: { 'com.linkedin.datajob.azkaban.AzkabanJobType': 'COMMAND' } })).toEqual([]);
    const field = (type: object) => ({ ...SCHEMA_METADATA.fields[0], type: { type } });
    expect(
      validateAspect('schemaMetadata', {
        ...SCHEMA_METADATA,
        platformSchema: { 'com.linkedin.schema.KafkaSchema': { documentSchema: '{}', keySchema: null } },
        fields: [field({ 'com.linkedin.schema.ArrayType': { nestedType: ['string'] } }), field({ 'com.linkedin.schema.RecordType': {} })],
      }),
    ).toEqual([]);
  });

  it('accepts unknown fields at any depth (kept as written)', () => {
    expect(validateAspect('globalTags', { tags: [{ tag: 'urn:li:tag:pii', extra: 1 }], newField: { a: [1] } })).toEqual([]);
    expect(validateAspect('status', { removed: false, removedAt: 5 })).toEqual([]);
  });

  it('accepts null for optional fields, as Python emitters write it', () => {
    expect(validateAspect('datasetProperties', { name: null, description: null, customProperties: null, created: null })).toEqual([]);
    expect(
      validateAspect('ownership', { owners: [{ owner: 'urn:li:corpuser:a', type: 'NONE', source: null }], lastModified: null }),
    ).toEqual([]);
  });

  it('knows every aspect of the registry (an object without its required fields is refused), and no unknown name', () => {
    for (const aspect of ['siblings', 'forms', 'structuredProperties', 'datasetProfile', 'queryProperties', 'assertionInfo']) {
      expect(validateAspect(aspect, { anything: [1, 'x'] }).length, aspect).toBeGreaterThan(0);
    }
    expect(validateAspect('embed', { renderUrl: 7 })).toEqual(['ERROR :: /renderUrl :: 7 is not backed by a string']);
    expect(validateAspect('nope', { anything: [1, 'x'] })).toEqual([]);
  });
});

describe('validateAspect: problems', () => {
  it('reports a missing required field', () => {
    const { schemaName: _, ...value } = SCHEMA_METADATA;
    expect(validateAspect('schemaMetadata', value)).toEqual([
      'ERROR :: /schemaName :: field is required but not found and has no default value',
    ]);
    expect(validateAspect('globalTags', {})).toEqual(['ERROR :: /tags :: field is required but not found and has no default value']);
    expect(validateAspect('datasetKey', { platform: 'urn:li:dataPlatform:hive', name: 'x' })).toEqual([
      'ERROR :: /origin :: field is required but not found and has no default value',
    ]);
  });

  it('does not require fields with a PDL default', () => {
    // ownership.lastModified, upstreams[].auditStamp, ChangeAuditStamps.created/lastModified have defaults.
    expect(validateAspect('ownership', { owners: [] })).toEqual([]);
    expect(validateAspect('upstreamLineage', { upstreams: [{ dataset: DATASET, type: 'COPY' }] })).toEqual([]);
    expect(validateAspect('editableSchemaMetadata', { editableSchemaFieldInfo: [] })).toEqual([]);
  });

  it('reports null for a required field as a wrong type', () => {
    expect(validateAspect('tagProperties', { name: null })).toEqual(['ERROR :: /name :: null is not backed by a string']);
    expect(validateAspect('glossaryTerms', { terms: [], auditStamp: null })).toEqual([
      'ERROR :: /auditStamp :: null is not backed by a record',
    ]);
  });

  it('reports wrong types with the value as JSON, at nested paths', () => {
    const fields = [{ ...SCHEMA_METADATA.fields[0], nullable: 'no' }];
    expect(validateAspect('schemaMetadata', { ...SCHEMA_METADATA, fields })).toEqual([
      'ERROR :: /fields/0/nullable :: "no" is not backed by a boolean',
    ]);
    expect(validateAspect('schemaMetadata', { ...SCHEMA_METADATA, version: 1.5, fields: {} })).toEqual([
      'ERROR :: /version :: 1.5 is not backed by a long',
      'ERROR :: /fields :: {} is not backed by an array',
    ]);
    expect(validateAspect('datasetProperties', { customProperties: { a: 1 }, created: 'now' })).toEqual([
      'ERROR :: /customProperties/a :: 1 is not backed by a string',
      'ERROR :: /created :: "now" is not backed by a record',
    ]);
    expect(
      validateAspect('dashboardInfo', {
        title: 'd',
        description: '',
        lastModified: {},
        datasetEdges: [{ destinationUrn: DATASET, properties: { weight: 1 } }],
      }),
    ).toEqual(['ERROR :: /datasetEdges/0/properties/weight :: 1 is not backed by a string']);
    expect(validateAspect('corpUserKey', { username: 7 })).toEqual(['ERROR :: /username :: 7 is not backed by a string']);
  });

  it('reports strings that are not URNs, in DataHub’s words', () => {
    expect(validateAspect('globalTags', { tags: [{ tag: 'pii' }, { tag: 3 }] })).toEqual([
      `ERROR :: /tags/0/tag :: "Provided urn pii" is invalid: Urn doesn't start with 'urn:'. Urn: pii`,
      'ERROR :: /tags/1/tag :: 3 is not backed by a string',
    ]);
  });

  it('reports bad enum symbols', () => {
    expect(validateAspect('ownership', { owners: [{ owner: 'urn:li:corpuser:a', type: 'X' }] })).toEqual([
      'ERROR :: /owners/0/type :: "X" is not an enum symbol',
    ]);
    expect(validateAspect('upstreamLineage', { upstreams: [{ dataset: DATASET, type: 'copy' }] })).toEqual([
      'ERROR :: /upstreams/0/type :: "copy" is not an enum symbol',
    ]);
    expect(validateAspect('dataFlowInfo', { name: 'f', env: 1 })).toEqual(['ERROR :: /env :: 1 is not an enum symbol']);
    expect(validateAspect('dataJobInfo', { name: 'j', type: { 'com.linkedin.datajob.azkaban.AzkabanJobType': 'SPARK' } })).toEqual([
      'ERROR :: /type/com.linkedin.datajob.azkaban.AzkabanJobType :: "SPARK" is not an enum symbol',
    ]);
  });

  it('reports unions without exactly one key, or with an unknown member', () => {
    const withSchema = (platformSchema: unknown) => validateAspect('schemaMetadata', { ...SCHEMA_METADATA, platformSchema });
    expect(withSchema({})).toEqual(['ERROR :: /platformSchema :: {} is not a member of union']);
    expect(withSchema({ 'com.linkedin.schema.Schemaless': {}, 'com.linkedin.schema.OtherSchema': { rawSchema: '' } })).toEqual([
      'ERROR :: /platformSchema :: {"com.linkedin.schema.Schemaless":{},"com.linkedin.schema.OtherSchema":{"rawSchema":""}} is not a member of union',
    ]);
    expect(withSchema({ 'com.linkedin.schema.Foo': {} })).toEqual([
      'ERROR :: /platformSchema :: "com.linkedin.schema.Foo" is not a member of union',
    ]);
    expect(withSchema('MySqlDDL')).toEqual(['ERROR :: /platformSchema :: "MySqlDDL" is not a member of union']);
    expect(withSchema({ 'com.linkedin.schema.OtherSchema': {} })).toEqual([
      'ERROR :: /platformSchema/com.linkedin.schema.OtherSchema/rawSchema :: field is required but not found and has no default value',
    ]);
    expect(withSchema(JSON.parse('{"toString":{}}'))).toEqual(['ERROR :: /platformSchema :: "toString" is not a member of union']);
    expect(validateAspect('dataJobInfo', { name: 'j', type: 'COMMAND' })).toEqual(['ERROR :: /type :: "COMMAND" is not a member of union']);
  });

  it('reports field type problems at /fields/<i>/type/type', () => {
    const fields = [
      { ...SCHEMA_METADATA.fields[0], type: { type: { 'com.linkedin.schema.IntType': {} } } },
      { ...SCHEMA_METADATA.fields[0], type: {} },
    ];
    expect(validateAspect('schemaMetadata', { ...SCHEMA_METADATA, fields })).toEqual([
      'ERROR :: /fields/0/type/type :: "com.linkedin.schema.IntType" is not a member of union',
      'ERROR :: /fields/1/type/type :: field is required but not found and has no default value',
    ]);
  });

  it('reports every problem, in field order', () => {
    expect(validateAspect('deprecation', { deprecated: 'yes', note: null })).toEqual([
      'ERROR :: /deprecated :: "yes" is not backed by a boolean',
      'ERROR :: /note :: null is not backed by a string',
      'ERROR :: /actor :: field is required but not found and has no default value',
    ]);
  });

  it('reports a value that is not an object at the root', () => {
    expect(validateAspect('status', [true])).toEqual(['ERROR :: / :: [true] is not backed by a record']);
  });
});
