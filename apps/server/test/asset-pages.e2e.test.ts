import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphqlError, ingestGolden, ingestSnapshots } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// The asset pages' entity types (Dataset, Chart, Dashboard, DataFlow, DataJob, Container, DataPlatform,
// DataPlatformInstance) declared as mappings of their aspects (packages/entities/src/graphql/dataset.ts, assets.ts,
// containers.ts), compared field by field with what DataHub's mappers (DatasetMapper, ChartMapper, DashboardMapper,
// DataFlowMapper, DataJobMapper, ContainerMapper, DataPlatformMapper, DataPlatformInstanceMapper at c731e725) give for
// the same stored aspects. The aspects are DataHub's own files (packages/entities/test/fixtures/datahub/SOURCES.md),
// and a few written here as DataHub's PDL documents them where no file carries them. The UI's page documents
// (getDataset, getChart, …) do not validate yet (their shared fragments need types other helpers declare): the
// queries below ask the same fields in the UI's shape.
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,key_value_topic,PROD)';
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const HDFS = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)';
const CHART = 'urn:li:chart:(superset,10)';
const DASHBOARD = 'urn:li:dashboard:(superset,1)';
const CONTAINER = 'urn:li:container:66c5ac35f0bfc521dee6f7d9533a8056';
const INSTANCE = 'urn:li:dataPlatformInstance:(urn:li:dataPlatform:snowflake,my_instance)';
const FLOW = 'urn:li:dataFlow:(fivetran,calendar_elected,PROD)';

let mds: Mds;

/** Writes one aspect as DataHub's emitters do (an UPSERT proposal with the value as JSON text). */
async function write(entityType: string, entityUrn: string, aspectName: string, value: unknown) {
  const proposal = {
    entityType,
    entityUrn,
    changeType: 'UPSERT',
    aspectName,
    aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  };
  const res = await mds.post('/aspects?action=ingestProposal', { proposal });
  expect([res.status, res.body?.message]).toEqual([200, undefined]);
}

beforeAll(async () => {
  mds = await startMds();
  await ingestSnapshots(mds);
  for (const file of [
    'golden_test_ingest.json',
    'fivetran_golden.json',
    'test_container_complex_golden.json',
    'kafka_without_schemas_mces_golden.json',
  ]) {
    await ingestGolden(mds, file);
  }
  await write('chart', CHART, 'chartQuery', { rawQuery: 'SELECT 1', type: 'SQL' });
  await write('chart', CHART, 'editableChartProperties', {
    description: 'edited in the UI',
    created: { time: 1, actor: 'urn:li:corpuser:jdoe' },
  });
  await write('chart', CHART, 'dataPlatformInstance', { platform: 'urn:li:dataPlatform:superset' });
  await write('dashboard', DASHBOARD, 'container', { container: CONTAINER });
  await write('dataset', HIVE, 'viewProperties', { materialized: false, viewLogic: 'SELECT * FROM t', viewLanguage: 'SQL' });
  await write('dataset', HIVE, 'datasetProperties', {
    name: 'Sample Hive',
    description: 'A sample',
    uri: 's3://bucket/sample',
    created: { time: 1700000000000, actor: 'urn:li:corpuser:jdoe' },
    customProperties: {},
  });
  await write('dataPlatformInstance', INSTANCE, 'dataPlatformInstanceProperties', {
    name: 'My instance',
    customProperties: { region: 'eu' },
  });
});
afterAll(() => mds?.close());

const data = async (query: string, variables?: Record<string, unknown>) => {
  const result = await mds.graphql(query, variables);
  expect(graphqlError(result)).toBeUndefined();
  return result.body.data;
};

describe('Dataset', () => {
  it('answers the key, datasetProperties and schemaMetadata as DatasetMapper and SchemaMetadataMapper do', async () => {
    const { dataset } = await data(
      `query getDataset($urn: String!) { dataset(urn: $urn) {
        urn type name origin description uri platform { urn name properties { type displayName datasetNameDelimiter } }
        properties { name origin description created createdActor lastModified { time actor } customProperties { key value associatedUrn } }
        dataPlatformInstance { urn }
        schemaMetadata { aspectVersion name platformUrn datasetUrn version hash primaryKeys
          platformSchema { ... on TableSchema { schema } ... on KeyValueSchema { keySchema valueSchema } }
          fields { fieldPath type nativeDataType nullable recursive isPartOfKey isPartitioningKey tags { tags { tag { urn } } } } }
        schema { name lastObserved } } }`,
      { urn: KAFKA },
    );
    expect(dataset).toMatchObject({
      urn: KAFKA,
      type: 'DATASET',
      name: 'key_value_topic',
      origin: 'PROD',
      description: 'Value schema for kafka topic',
      uri: null,
      platform: {
        urn: 'urn:li:dataPlatform:kafka',
        name: 'kafka',
        properties: { type: 'MESSAGE_BROKER', displayName: 'Kafka', datasetNameDelimiter: '.' },
      },
      // Only the platform is named: no instance entity.
      dataPlatformInstance: null,
    });
    expect(dataset.properties).toMatchObject({
      name: 'key_value_topic',
      origin: 'PROD',
      created: null,
      createdActor: null,
      lastModified: { time: 0, actor: null },
    });
    expect(dataset.properties.customProperties).toContainEqual({
      key: 'Schema Name',
      value: 'key_value_topic-value',
      associatedUrn: KAFKA,
    });
    const schema = dataset.schemaMetadata;
    expect(schema).toMatchObject({
      aspectVersion: 0,
      name: 'key_value_topic',
      platformUrn: 'urn:li:dataPlatform:kafka',
      datasetUrn: null,
      version: 0,
    });
    expect(schema.hash).toBe('a79a2fe3adab60b21d272a9cc3e93595');
    // A KafkaSchema is shown as a table schema of its document schema (PlatformSchemaMapper).
    expect(schema.platformSchema.schema).toMatch(/CreateUserRequest/);
    expect(schema.fields.length).toBeGreaterThan(0);
    for (const field of schema.fields) {
      // The PDL defaults when the file says nothing (false), and the key schema's fields are part of the key.
      expect(field).toMatchObject({ recursive: false, isPartitioningKey: false });
      expect(typeof field.isPartOfKey).toBe('boolean');
      expect([
        'STRING',
        'NUMBER',
        'BOOLEAN',
        'STRUCT',
        'ARRAY',
        'MAP',
        'UNION',
        'ENUM',
        'NULL',
        'BYTES',
        'FIXED',
        'DATE',
        'TIME',
      ]).toContain(field.type);
    }
    expect(dataset.schema.name).toBe('key_value_topic');
    expect(typeof dataset.schema.lastObserved).toBe('number');
  });

  it('answers datasetProperties.name, created, uri and viewProperties, and the key name when properties name nothing', async () => {
    const { hive, hdfs } = await data(`{ hive: dataset(urn: "${HIVE}") { name description uri
      properties { name created createdActor } viewProperties { materialized logic formattedLogic language } }
      hdfs: dataset(urn: "${HDFS}") { name properties { name } editableSchemaMetadata { editableSchemaFieldInfo {
        fieldPath description tags { tags { tag { urn name } associatedUrn } } globalTags { tags { tag { urn } } } } } } }`);
    expect(hive).toMatchObject({
      name: 'Sample Hive',
      description: 'A sample',
      uri: 's3://bucket/sample',
      properties: { name: 'Sample Hive', created: 1700000000000, createdActor: 'urn:li:corpuser:jdoe' },
      viewProperties: { materialized: false, logic: 'SELECT * FROM t', formattedLogic: null, language: 'SQL' },
    });
    // bootstrap_mce.json's EditableSchemaMetadata of the HDFS dataset; it has no datasetProperties: the key's name.
    expect(hdfs).toEqual({
      name: 'SampleHdfsDataset',
      properties: null,
      editableSchemaMetadata: {
        editableSchemaFieldInfo: [
          {
            fieldPath: 'shipment_info',
            description: null,
            tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy', name: 'Legacy' }, associatedUrn: HDFS }] },
            globalTags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy' } }] },
          },
        ],
      },
    });
  });

  it('answers an older schemaMetadata by its version and null for a version never written', async () => {
    await write('dataset', KAFKA, 'schemaMetadata', {
      schemaName: 'key_value_topic',
      platform: 'urn:li:dataPlatform:kafka',
      version: 1,
      hash: 'second',
      platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: 'CREATE TABLE t (a INT)' } },
      fields: [
        { fieldPath: 'a', nativeDataType: 'INT', type: { type: { 'com.linkedin.schema.NumberType': {} } }, isPartOfKey: true },
        { fieldPath: '', nativeDataType: 'INT', type: { type: { 'com.linkedin.schema.NumberType': {} } } },
      ],
    });
    const { dataset } = await data(`{ dataset(urn: "${KAFKA}") {
      latest: schemaMetadata { aspectVersion hash platformSchema { ... on TableSchema { schema } } fields { fieldPath type isPartOfKey } }
      first: schemaMetadata(version: 1) { aspectVersion hash }
      never: schemaMetadata(version: 7) { hash } } }`);
    expect(dataset).toEqual({
      // A field without a path is left out (SchemaMetadataMapper).
      latest: {
        aspectVersion: 0,
        hash: 'second',
        platformSchema: { schema: 'CREATE TABLE t (a INT)' },
        fields: [{ fieldPath: 'a', type: 'NUMBER', isPartOfKey: true }],
      },
      first: { aspectVersion: 1, hash: 'a79a2fe3adab60b21d272a9cc3e93595' },
      never: null,
    });
  });
});

describe('Dataset time series', () => {
  it('answers profiles without their partition spec (DatasetProfileMapper) and operations with the spec’s partition (OperationMapper)', async () => {
    const partitionSpec = { type: 'PARTITION', partition: 'dt=2026-01-01' };
    await write('dataset', HDFS, 'datasetProfile', {
      timestampMillis: 1_700_000_000_000,
      rowCount: 10,
      partitionSpec,
      fieldProfiles: [
        { fieldPath: 'a', quantiles: [{ quantile: '0.5', value: '3' }], distinctValueFrequencies: [{ value: 'x', frequency: 2 }] },
      ],
    });
    await write('dataset', HDFS, 'operation', {
      timestampMillis: 1_700_000_000_000,
      lastUpdatedTimestamp: 1_700_000_000_000,
      operationType: 'INSERT',
      partitionSpec,
      customProperties: { job: 'nightly' },
    });
    const { dataset } = await data(`{ dataset(urn: "${HDFS}") {
      datasetProfiles { rowCount partitionSpec { partition } fieldProfiles { fieldPath quantiles { quantile value } distinctValueFrequencies { value frequency } } }
      operations { operationType partition customProperties { key value } } } }`);
    expect(dataset).toEqual({
      datasetProfiles: [
        {
          rowCount: 10,
          partitionSpec: null,
          fieldProfiles: [
            { fieldPath: 'a', quantiles: [{ quantile: '0.5', value: '3' }], distinctValueFrequencies: [{ value: 'x', frequency: 2 }] },
          ],
        },
      ],
      operations: [{ operationType: 'INSERT', partition: 'dt=2026-01-01', customProperties: [{ key: 'job', value: 'nightly' }] }],
    });
  });
});

describe('Chart and Dashboard', () => {
  it('answer chartInfo, chartQuery and editableChartProperties as ChartMapper does', async () => {
    const { chart } = await data(
      `query getChart($urn: String!) { chart(urn: $urn) {
      urn type tool chartId platform { urn name }
      properties { name description externalUrl type access lastRefreshed created { time actor } lastModified { time actor } deleted { time }
        customProperties { key value associatedUrn } }
      query { rawQuery type } editableProperties { description } editableInfo { description }
      dataPlatformInstance { urn } container { urn } ownership { owners { owner { ... on CorpUser { urn } } } } } }`,
      { urn: CHART },
    );
    expect(chart).toEqual({
      urn: CHART,
      type: 'CHART',
      tool: 'superset',
      chartId: '10',
      platform: { urn: 'urn:li:dataPlatform:superset', name: 'superset' },
      properties: {
        name: 'test_chart_title_1',
        description: '',
        // No externalUrl: the chartUrl.
        externalUrl: 'mock://mock-domain.superset.com/explore/test_chart_url_10',
        type: 'BAR',
        access: null,
        lastRefreshed: null,
        created: { time: 0, actor: 'urn:li:corpuser:unknown' },
        lastModified: { time: 1586847600000, actor: 'urn:li:corpuser:test_owner1@example.com' },
        deleted: null,
        customProperties: ['Metrics', 'Filters', 'Dimensions'].map((key) => ({ key, value: '', associatedUrn: CHART })),
      },
      query: { rawQuery: 'SELECT 1', type: 'SQL' },
      editableProperties: { description: 'edited in the UI' },
      editableInfo: { description: 'edited in the UI' },
      dataPlatformInstance: null,
      container: null,
      ownership: { owners: expect.any(Array) },
    });
  });

  it('answer dashboardInfo as DashboardMapper does, and the container a dashboard is in', async () => {
    const { dashboard } = await data(
      `query getDashboard($urn: String!) { dashboard(urn: $urn) {
      tool dashboardId platform { urn } properties { name externalUrl access created { actor } lastModified { time } customProperties { key value } }
      editableProperties { description } container { urn properties { name } } parentContainers { count containers { urn } } } }`,
      { urn: DASHBOARD },
    );
    expect(dashboard).toMatchObject({
      tool: 'superset',
      dashboardId: '1',
      platform: { urn: 'urn:li:dataPlatform:superset' },
      properties: {
        name: 'test_dashboard_title_1',
        externalUrl: 'mock://mock-domain.superset.com/dashboard/test_dashboard_url_1',
        access: null,
        created: { actor: 'urn:li:corpuser:unknown' },
        lastModified: { time: 1586847600000 },
      },
      editableProperties: null,
      container: { urn: CONTAINER, properties: { name: 'MY_SCHEMA' } },
      // Its own container first, then the one above (ParentContainersResolver).
      parentContainers: { count: 2, containers: [{ urn: CONTAINER }, { urn: 'urn:li:container:37d6500021cda2a0aa7ae1900eab5a9c' }] },
    });
    expect(dashboard.properties.customProperties).toContainEqual({ key: 'Status', value: 'published' });
  });
});

describe('DataFlow and DataJob', () => {
  it('answer dataFlowInfo, dataJobInfo and dataJobInputOutput as their mappers do', async () => {
    const { dataFlow } = await data(
      `query getDataFlow($urn: String!) { dataFlow(urn: $urn) {
      urn orchestrator flowId cluster platform { urn name } properties { name description project externalUrl } editableProperties { description } } }`,
      { urn: FLOW },
    );
    expect(dataFlow).toMatchObject({
      urn: FLOW,
      orchestrator: 'fivetran',
      flowId: 'calendar_elected',
      cluster: 'PROD',
      platform: { urn: 'urn:li:dataPlatform:fivetran', name: 'fivetran' },
    });
    expect(dataFlow.properties.name).toBe('postgres');
    const job = 'urn:li:dataJob:(urn:li:dataFlow:(fivetran,calendar_elected,PROD),calendar_elected)';
    const { dataJob } = await data(
      `query getDataJob($urn: String!) { dataJob(urn: $urn) {
      jobId dataFlow { urn flowId } platform { urn } properties { name }
      inputOutput { inputDatasets { urn name } outputDatasets { urn } inputDatajobs { urn } } } }`,
      { urn: job },
    );
    expect(dataJob).toMatchObject({ jobId: 'calendar_elected', dataFlow: { urn: FLOW, flowId: 'calendar_elected' }, platform: null });
    expect(dataJob.inputOutput.inputDatasets.length).toBeGreaterThan(0);
    expect(dataJob.inputOutput.outputDatasets.length).toBeGreaterThan(0);
    // The file lists no upstream jobs.
    expect(dataJob.inputOutput.inputDatajobs).toEqual([]);
  });
});

describe('Container, DataPlatform, DataPlatformInstance', () => {
  it('answer a container with its platform instance as an entity, as ContainerMapper and DataPlatformInstanceMapper do', async () => {
    const { container } = await data(
      `query getContainer($urn: String!) { container(urn: $urn) {
      urn platform { urn name } properties { name description qualifiedName externalUrl customProperties { key value } }
      editableProperties { description } subTypes { typeNames } container { urn }
      dataPlatformInstance { urn type instanceId platform { urn name } properties { name description customProperties { key value associatedUrn } } } } }`,
      { urn: CONTAINER },
    );
    expect(container).toMatchObject({
      urn: CONTAINER,
      platform: { urn: 'urn:li:dataPlatform:snowflake', name: 'snowflake' },
      properties: { name: 'MY_SCHEMA', description: 'test', qualifiedName: 'MY_DB.MY_SCHEMA', externalUrl: 'https://example.com' },
      editableProperties: null,
      subTypes: { typeNames: ['Schema'] },
      container: { urn: 'urn:li:container:37d6500021cda2a0aa7ae1900eab5a9c' },
      dataPlatformInstance: {
        urn: INSTANCE,
        type: 'DATA_PLATFORM_INSTANCE',
        instanceId: 'my_instance',
        platform: { urn: 'urn:li:dataPlatform:snowflake', name: 'snowflake' },
        properties: { name: 'My instance', description: null, customProperties: [{ key: 'region', value: 'eu', associatedUrn: INSTANCE }] },
      },
    });
  });

  it('answers a container without dataPlatformInstance on the unknown platform', async () => {
    await write('container', 'urn:li:container:bare', 'containerProperties', { name: 'bare' });
    const { container } = await data(`{ container(urn: "urn:li:container:bare") { platform { urn name properties { displayName } } } }`);
    expect(container).toEqual({ platform: { urn: 'urn:li:dataPlatform:unknown', name: 'unknown', properties: null } });
  });

  it('answers dataPlatform(urn) from the name in its urn and dataPlatformInfo (properties and info alike)', async () => {
    const { dataPlatform } = await data(
      `query getDataPlatform($urn: String!) { dataPlatform(urn: $urn) {
      urn type name properties { type displayName datasetNameDelimiter logoUrl } info { type displayName datasetNameDelimiter logoUrl } } }`,
      { urn: 'urn:li:dataPlatform:hive' },
    );
    expect(dataPlatform.name).toBe('hive');
    expect(dataPlatform.properties).toEqual(dataPlatform.info);
    expect(dataPlatform.properties).toMatchObject({ type: 'FILE_SYSTEM', displayName: 'Hive', datasetNameDelimiter: '.' });
  });
});
