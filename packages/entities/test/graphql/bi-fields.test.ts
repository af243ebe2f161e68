import { Privilege } from '@mds/auth';
import { sqliteTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/index';
import { actor, errorOf, upsert, versionedOnly } from './edit-support';
import { goldenGraphql } from './golden';

const databases = sqliteTestDatabases();
afterEach(databases.closeOpened);
afterAll(databases.dispose);

// The fields of charts, dashboards, flows, jobs and datasets the UI's pages read beside `properties` (chart.graphql,
// dashboard.graphql, dataFlow.graphql, dataJob.graphql, lineage.graphql and the fragments browsePathV2Fields,
// inputFieldsFields, dataTransformLogicFields, schemaMetadataFields: apps/server/test/fixtures/datahub-web-react,
// DataHub c731e725), over DataHub's golden files (test/fixtures/datahub, SOURCES.md): a MySQL ingestion
// (mysql_table_level_only.json), Superset's charts and dashboards (golden_test_ingest.json) and a Fivetran sync into
// Snowflake (fivetran_snowflake_golden.json). Each expectation is what DataHub's mapper gives for the stored aspects.
const FLOW = 'urn:li:dataFlow:(mysql,northwind.northwind.stored_procedures,PROD)';
const JOB = `urn:li:dataJob:(${FLOW},AddCustomer)`;
const NORTHWIND = 'urn:li:container:dc2ae101b66746b9c2b6df8ee89ca88f';
const PROCEDURES = 'urn:li:container:7b677d9de1e980494659f0959b716bae';
const CUSTOMERS = 'urn:li:dataset:(urn:li:dataPlatform:mysql,northwind.customers,PROD)';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:mysql,northwind.orders,PROD)';
const CHART = 'urn:li:chart:(superset,10)';
const DASHBOARD = 'urn:li:dashboard:(superset,1)';
const TABLE_1 = 'urn:li:dataset:(urn:li:dataPlatform:superset,test_database1.test_schema1.Test Table 1,PROD)';
const FIVETRAN_FLOW = 'urn:li:dataFlow:(fivetran,calendar_elected,PROD)';
const FIVETRAN_JOB = `urn:li:dataJob:(${FIVETRAN_FLOW},calendar_elected)`;
const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`;

/** The data of `source` read in a request of its own (a request's reads are cached: a later one sees later writes). */
async function read(run: Awaited<ReturnType<typeof golden>>['run'], source: string, variables: Record<string, unknown>) {
  const result = await run(source, variables, actor('urn:li:corpuser:reader'));
  expect(result.errors).toBeUndefined();
  return result.data!;
}

const golden = () =>
  goldenGraphql(databases, ['mysql_table_level_only.json', 'golden_test_ingest.json', 'fivetran_snowflake_golden.json'], {
    keep: versionedOnly,
  });

// What browsePathV2Fields reads of each entry (its entityDisplayNameFields, for the entry types stored here).
const BROWSE_PATH_V2 = `browsePathV2 { path { name entity { urn type ... on Container { properties { name } } ... on DataFlow { properties { name } } } } }`;

describe('browsePathV2 on every browsable type (BrowsePathsV2Mapper, as ChartMapper, DashboardMapper, DataFlowMapper, DataJobMapper, DatasetMapper call it)', () => {
  it('answers the stored path, each entry with the entity its urn names (stored or not); null when none is stored', async () => {
    const { query, run, service } = await golden();
    const data = await query(
      `query($flow: String!, $job: String!, $fivetran: String!, $orders: String!, $chart: String!, $dashboard: String!) {
        flow: dataFlow(urn: $flow) { ${BROWSE_PATH_V2} }
        job: dataJob(urn: $job) { ${BROWSE_PATH_V2} }
        fivetran: dataJob(urn: $fivetran) { ${BROWSE_PATH_V2} }
        orders: dataset(urn: $orders) { ${BROWSE_PATH_V2} }
        chart: chart(urn: $chart) { ${BROWSE_PATH_V2} }
        dashboard: dashboard(urn: $dashboard) { ${BROWSE_PATH_V2} }
      }`,
      { flow: FLOW, job: JOB, fivetran: FIVETRAN_JOB, orders: ORDERS, chart: CHART, dashboard: DASHBOARD },
    );
    const northwind = { name: NORTHWIND, entity: { urn: NORTHWIND, type: 'CONTAINER', properties: { name: 'northwind' } } };
    expect(data.flow).toEqual({ browsePathV2: { path: [northwind] } });
    // The procedures' container is named by the path but not in the file: its entity still answers, with no properties.
    expect(data.job).toEqual({
      browsePathV2: { path: [{ name: PROCEDURES, entity: { urn: PROCEDURES, type: 'CONTAINER', properties: null } }] },
    });
    expect(data.fivetran).toEqual({
      browsePathV2: {
        path: [{ name: 'calendar_elected', entity: { urn: FIVETRAN_FLOW, type: 'DATA_FLOW', properties: { name: 'postgres' } } }],
      },
    });
    expect(data.orders).toEqual({ browsePathV2: { path: [northwind] } });
    expect(data.chart).toEqual({ browsePathV2: null });
    expect(data.dashboard).toEqual({ browsePathV2: null });

    // A chart's and a dashboard's own path, as an ingestion writes it (an entry without urn has no entity).
    const path = { path: [{ id: 'Sales' }, { id: NORTHWIND, urn: NORTHWIND }] };
    await service.ingest(SYSTEM_ACTOR, [upsert(CHART, 'browsePathsV2', path), upsert(DASHBOARD, 'browsePathsV2', path)], { batch: false });
    const again = await read(
      run,
      `query($chart: String!, $dashboard: String!) { chart(urn: $chart) { ${BROWSE_PATH_V2} } dashboard(urn: $dashboard) { ${BROWSE_PATH_V2} } }`,
      { chart: CHART, dashboard: DASHBOARD },
    );
    const expected = { browsePathV2: { path: [{ name: 'Sales', entity: null }, northwind] } };
    expect(again).toEqual({ chart: expected, dashboard: expected });
  });

  it('the types DataHub declares browsable implement BrowsableEntity (their browsePaths through the interface)', async () => {
    const { query, service } = await golden();
    const urns = [CHART, DASHBOARD, FLOW, JOB, ORDERS];
    await service.ingest(
      SYSTEM_ACTOR,
      urns.map((urn) => upsert(urn, 'browsePaths', { paths: ['/prod/northwind'] })),
      { batch: false },
    );
    const data = await query(`query($urns: [String!]!) { entities(urns: $urns) { urn ... on BrowsableEntity { browsePaths { path } } } }`, {
      urns,
    });
    expect(data.entities).toEqual(urns.map((urn) => ({ urn, browsePaths: [{ path: ['prod', 'northwind'] }] })));
  });
});

describe('the ML types DataHub declares browsable (MLModel, MLModelGroup, MLFeatureTable implement BrowsableEntity)', () => {
  it("answer the browse paths of their browsePaths aspect through the interface (DataHub's bootstrap feature table)", async () => {
    const api = await goldenGraphql(databases, ['bootstrap_mce.json'], { keep: versionedOnly });
    const TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,test_feature_table_all_feature_dtypes)';
    const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:science,scienceModel,PROD)';
    const GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn-models,PROD)';
    await api.service.ingest(
      SYSTEM_ACTOR,
      [upsert(GROUP, 'browsePaths', { paths: ['/sagemaker/churn'] }), upsert(MODEL, 'browsePaths', { paths: ['/science/models'] })],
      { batch: false },
    );
    const PATHS = `urn ... on BrowsableEntity { browsePaths { path } }`;
    const data = await read(
      api.run,
      `query($table: String!, $model: String!, $group: String!) { table: mlFeatureTable(urn: $table) { ${PATHS} }
        model: mlModel(urn: $model) { ${PATHS} } group: mlModelGroup(urn: $group) { ${PATHS} } }`,
      { table: TABLE, model: MODEL, group: GROUP },
    );
    expect(data).toEqual({
      table: { urn: TABLE, browsePaths: [{ path: ['feast', 'test_feature_table_all_feature_dtypes'] }] },
      model: { urn: MODEL, browsePaths: [{ path: ['science', 'models'] }] },
      group: { urn: GROUP, browsePaths: [{ path: ['sagemaker', 'churn'] }] },
    });
  });
});

describe('column-level lineage (FineGrainedLineagesMapper, as DataJobMapper and UpstreamLineagesMapper call it)', () => {
  // What lineage.graphql's getDataJob… selection reads (inputOutput.fineGrainedLineages).
  const FINE_GRAINED = `fineGrainedLineages { upstreams { urn path } downstreams { urn path } query transformOperation }`;
  const POSTGRES = (table: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,postgres_db.public.${table},DEV)`;
  const SNOWFLAKE = (table: string) => `urn:li:dataset:(urn:li:dataPlatform:snowflake,test_database.postgres_public.${table},PROD)`;

  it("a job's inputOutput answers each field-to-field edge: the field's dataset urn and path, no query or operation when none is stored", async () => {
    const { query } = await golden();
    const data = await query(`query($urn: String!) { dataJob(urn: $urn) { inputOutput { ${FINE_GRAINED} } } }`, { urn: FIVETRAN_JOB });
    const edge = (table: string, column: string) => ({
      upstreams: [{ urn: POSTGRES(table), path: column }],
      downstreams: [{ urn: SNOWFLAKE(table), path: column }],
      query: null,
      transformOperation: null,
    });
    expect(data.dataJob.inputOutput.fineGrainedLineages).toEqual([
      edge('employee', 'id'),
      edge('employee', 'name'),
      edge('company', 'id'),
      edge('company', 'name'),
    ]);
    // A job whose dataJobInputOutput is not stored has no inputOutput at all.
    expect((await query(`query($urn: String!) { dataJob(urn: $urn) { inputOutput { ${FINE_GRAINED} } } }`, { urn: JOB })).dataJob).toEqual({
      inputOutput: null,
    });
  });

  it('a dataset answers the same rule over upstreamLineage: ends that are whole datasets are left out, the query urn and operation kept', async () => {
    const { query, service } = await golden();
    const QUERY = 'urn:li:query:orders-by-customer';
    await service.ingest(
      SYSTEM_ACTOR,
      [
        upsert(ORDERS, 'upstreamLineage', {
          upstreams: [{ dataset: CUSTOMERS, type: 'TRANSFORMED', auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' } }],
          fineGrainedLineages: [
            {
              upstreamType: 'FIELD_SET',
              upstreams: [field(CUSTOMERS, 'id'), CUSTOMERS],
              downstreamType: 'FIELD',
              downstreams: [field(ORDERS, 'customer_id')],
              transformOperation: 'IDENTITY',
              query: QUERY,
            },
            { upstreamType: 'DATASET', downstreamType: 'FIELD_SET' },
          ],
        }),
        upsert(JOB, 'dataJobInputOutput', { inputDatasets: [CUSTOMERS], outputDatasets: [ORDERS] }),
      ],
      { batch: false },
    );
    const data = await query(
      `query($orders: String!, $job: String!) { dataset(urn: $orders) { ${FINE_GRAINED} } dataJob(urn: $job) { inputOutput { ${FINE_GRAINED} } } }`,
      { orders: ORDERS, job: JOB },
    );
    expect(data.dataset.fineGrainedLineages).toEqual([
      {
        upstreams: [{ urn: CUSTOMERS, path: 'id' }],
        downstreams: [{ urn: ORDERS, path: 'customer_id' }],
        query: QUERY,
        transformOperation: 'IDENTITY',
      },
      { upstreams: null, downstreams: null, query: null, transformOperation: null },
    ]);
    // Without fine-grained lineages stored, the job's list is absent (null), as DataJobMapper leaves it.
    expect(data.dataJob.inputOutput).toEqual({ fineGrainedLineages: null });
  });
});

// What inputFieldsFields reads (its entitySchemaFieldFields, trimmed to what this package answers alone).
const INPUT_FIELDS = `inputFields { fields { schemaFieldUrn schemaField { fieldPath nullable description type nativeDataType recursive isPartOfKey
  globalTags { tags { tag { urn } associatedUrn } } schemaFieldEntity { urn fieldPath parent { urn } } } } }`;

describe('inputFields of charts and dashboards (InputFieldsMapper)', () => {
  it('answers each field with its urn and its schema field, as a field of the dataset the urn names', async () => {
    const { query } = await golden();
    const data = await query(`query($urn: String!) { chart(urn: $urn) { ${INPUT_FIELDS} } }`, { urn: CHART });
    const column = (path: string, type: string, nativeDataType: string, description: string) => ({
      schemaFieldUrn: field(TABLE_1, path),
      schemaField: {
        fieldPath: path,
        nullable: true,
        description,
        type,
        nativeDataType,
        recursive: false,
        isPartOfKey: false,
        globalTags: null,
        schemaFieldEntity: { urn: field(TABLE_1, path), fieldPath: path, parent: { urn: TABLE_1 } },
      },
    });
    expect(data.chart.inputFields).toEqual({
      fields: [
        column('test_column1', 'NUMBER', 'INT', 'some description 1'),
        column('test_column2', 'STRING', 'STRING', 'some description 2'),
      ],
    });
  });

  it("a dashboard's, and a field without urn (the chart's own) or without schema field; null when the aspect is not stored", async () => {
    const { query, service } = await golden();
    const tagged = {
      fieldPath: 'amount',
      nullable: false,
      type: { type: { 'com.linkedin.schema.NumberType': {} } },
      nativeDataType: 'DECIMAL',
      globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] },
    };
    await service.ingest(
      SYSTEM_ACTOR,
      [
        upsert(DASHBOARD, 'inputFields', {
          fields: [{ schemaFieldUrn: field(ORDERS, 'amount'), schemaField: tagged }, { schemaFieldUrn: field(ORDERS, 'id') }],
        }),
      ],
      { batch: false },
    );
    const data = await query(
      `query($dashboard: String!, $other: String!) { dashboard(urn: $dashboard) { ${INPUT_FIELDS} } other: dashboard(urn: $other) { ${INPUT_FIELDS} } }`,
      { dashboard: DASHBOARD, other: 'urn:li:dashboard:(superset,2)' },
    );
    expect(data.dashboard.inputFields.fields).toEqual([
      {
        schemaFieldUrn: field(ORDERS, 'amount'),
        schemaField: {
          fieldPath: 'amount',
          nullable: false,
          description: null,
          type: 'NUMBER',
          nativeDataType: 'DECIMAL',
          recursive: false,
          isPartOfKey: false,
          // The tag association belongs to the dataset the field is of.
          globalTags: { tags: [{ tag: { urn: 'urn:li:tag:pii' }, associatedUrn: ORDERS }] },
          schemaFieldEntity: { urn: field(ORDERS, 'amount'), fieldPath: 'amount', parent: { urn: ORDERS } },
        },
      },
      { schemaFieldUrn: field(ORDERS, 'id'), schemaField: null },
    ]);
    expect(data.other).toEqual({ inputFields: null });
  });
});

describe('foreign keys of a schema (SchemaMetadataMapper, SchemaMapper, ForeignKeyConstraintMapper)', () => {
  // What schemaMetadataFields reads of foreignKeys (foreignDataset trimmed to the fields this package answers alone).
  const FOREIGN_KEYS = `foreignKeys { name sourceFields { urn fieldPath } foreignFields { urn fieldPath parent { urn } }
    foreignDataset { urn name type origin platform { urn } properties { description } } }`;

  it('answers each constraint: its name, its fields as schema field entities and the dataset it points at', async () => {
    const { query } = await golden();
    const data = await query(
      `query($orders: String!, $customers: String!) {
        orders: dataset(urn: $orders) { schema { ${FOREIGN_KEYS} } schemaMetadata(version: 0) { ${FOREIGN_KEYS} } }
        customers: dataset(urn: $customers) { schema { ${FOREIGN_KEYS} } schemaMetadata(version: 0) { ${FOREIGN_KEYS} } }
      }`,
      { orders: ORDERS, customers: CUSTOMERS },
    );
    const fk = {
      name: 'fk_order_customer',
      sourceFields: [{ urn: field(ORDERS, 'customer_id'), fieldPath: 'customer_id' }],
      foreignFields: [{ urn: field(CUSTOMERS, 'id'), fieldPath: 'id', parent: { urn: CUSTOMERS } }],
      // The dataset's name is its datasetProperties' (DatasetMapper).
      foreignDataset: {
        urn: CUSTOMERS,
        name: 'customers',
        type: 'DATASET',
        origin: 'PROD',
        platform: { urn: 'urn:li:dataPlatform:mysql' },
        properties: { description: null },
      },
    };
    expect(data.orders).toEqual({ schema: { foreignKeys: [fk] }, schemaMetadata: { foreignKeys: [fk] } });
    // A schema that names no foreign keys answers none (null), as the mappers leave the list unset.
    expect(data.customers).toEqual({ schema: { foreignKeys: null }, schemaMetadata: { foreignKeys: null } });
  });
});

describe("a job's dataTransformLogic (DataTransformLogicMapper)", () => {
  it("answers the stored transforms' query statements; null when the aspect is not stored", async () => {
    const { query } = await golden();
    const TRANSFORM = `dataTransformLogic { transforms { queryStatement { value language } } }`;
    const data = await query(
      `query($job: String!, $other: String!) { job: dataJob(urn: $job) { ${TRANSFORM} } other: dataJob(urn: $other) { ${TRANSFORM} } }`,
      { job: JOB, other: FIVETRAN_JOB },
    );
    expect(data.job.dataTransformLogic).toEqual({
      transforms: [
        {
          queryStatement: {
            value:
              'BEGIN\n    INSERT INTO customers (id, last_name, first_name, email_address, priority)\n    VALUES (id, in_last_name, in_first_name, in_email_address, in_priority);\nEND',
            language: 'SQL',
          },
        },
      ],
    });
    expect(data.other).toEqual({ dataTransformLogic: null });
  });
});

describe('the deprecated `info` of charts, dashboards, flows and jobs (ChartMapper, DashboardMapper, DataFlowMapper, DataJobMapper)', () => {
  const STAMPS = `created { time actor } lastModified { time actor } deleted { time }`;

  it('reads the same aspect as `properties`, with the inputs of a chart and the charts of a dashboard', async () => {
    const { query } = await golden();
    const data = await query(
      `query($chart: String!, $dashboard: String!, $flow: String!, $job: String!) {
        chart(urn: $chart) { info { name description externalUrl type access lastRefreshed inputs { urn } customProperties { key value } ${STAMPS} }
          properties { name description externalUrl type access lastRefreshed customProperties { key value } ${STAMPS} } }
        dashboard(urn: $dashboard) { info { name description externalUrl charts { urn } access lastRefreshed customProperties { key value } ${STAMPS} } }
        dataFlow(urn: $flow) { info { name description project externalUrl customProperties { key value } } dataJobs { entities { entity { urn } } } }
        dataJob(urn: $job) { info { name description externalUrl customProperties { key value } } }
      }`,
      { chart: CHART, dashboard: DASHBOARD, flow: FLOW, job: FIVETRAN_JOB },
    );
    const stamps = {
      created: { time: 0, actor: 'urn:li:corpuser:unknown' },
      lastModified: { time: 1586847600000, actor: 'urn:li:corpuser:test_owner1@example.com' },
      deleted: null,
    };
    const chart = {
      name: 'test_chart_title_1',
      description: '',
      // No externalUrl: the chartUrl.
      externalUrl: 'mock://mock-domain.superset.com/explore/test_chart_url_10',
      type: 'BAR',
      access: null,
      lastRefreshed: null,
      customProperties: [
        { key: 'Metrics', value: '' },
        { key: 'Filters', value: '' },
        { key: 'Dimensions', value: '' },
      ],
      ...stamps,
    };
    expect(data.chart).toEqual({ info: { ...chart, inputs: [{ urn: TABLE_1 }] }, properties: chart });
    expect(data.dashboard.info).toMatchObject({
      name: 'test_dashboard_title_1',
      description: '',
      externalUrl: 'mock://mock-domain.superset.com/dashboard/test_dashboard_url_1',
      charts: [{ urn: CHART }, { urn: 'urn:li:chart:(superset,11)' }],
      access: null,
      ...stamps,
    });
    expect(data.dashboard.info.customProperties).toContainEqual({ key: 'Status', value: 'published' });
    // The flow has a job (AddCustomer), yet the deprecated dataJobs answers null, as DataHub's (no mapper fills it).
    expect(data.dataFlow).toEqual({
      info: { name: 'northwind.northwind.stored_procedures', description: null, project: null, externalUrl: null, customProperties: [] },
      dataJobs: null,
    });
    expect(data.dataJob.info).toMatchObject({ name: 'postgres', description: null, externalUrl: null });
    expect(data.dataJob.info.customProperties).toContainEqual({ key: 'connector_id', value: 'calendar_elected' });
  });

  it('null where the aspect is not stored', async () => {
    const { query, service } = await golden();
    const BARE_CHART = 'urn:li:chart:(superset,99)';
    const BARE_DASHBOARD = 'urn:li:dashboard:(superset,99)';
    const BARE_FLOW = 'urn:li:dataFlow:(airflow,bare,PROD)';
    const BARE_JOB = `urn:li:dataJob:(${BARE_FLOW},task)`;
    await service.ingest(
      SYSTEM_ACTOR,
      [BARE_CHART, BARE_DASHBOARD, BARE_FLOW, BARE_JOB].map((urn) => upsert(urn, 'status', { removed: false })),
      { batch: false },
    );
    const data = await query(
      `query($chart: String!, $dashboard: String!, $flow: String!, $job: String!) { chart(urn: $chart) { info { name } properties { name } }
        dashboard(urn: $dashboard) { info { name } } dataFlow(urn: $flow) { info { name } } dataJob(urn: $job) { info { name } } }`,
      { chart: BARE_CHART, dashboard: BARE_DASHBOARD, flow: BARE_FLOW, job: BARE_JOB },
    );
    expect(data).toEqual({
      chart: { info: null, properties: null },
      dashboard: { info: null },
      dataFlow: { info: null },
      dataJob: { info: null },
    });
  });
});

describe('logicalParent of datasets and schema fields (DatasetMapper, SchemaFieldMapper, SetLogicalParentResolver)', () => {
  const NOW = 1_700_000_000_000;
  const LOGICAL = 'urn:li:dataset:(urn:li:dataPlatform:logical,northwind.orders,PROD)';
  const SET = `mutation($input: SetLogicalParentInput!) { setLogicalParent(input: $input) }`;
  const READ = `query($orders: String!, $field: String!) {
    dataset(urn: $orders) { logicalParent { urn type } ... on HasLogicalParent { parent: logicalParent { urn } } }
    field: entity(urn: $field) { ... on SchemaFieldEntity { logicalParent { urn type } } } }`;
  const setup = async () => {
    const api = await goldenGraphql(databases, ['mysql_table_level_only.json'], { keep: versionedOnly, now: () => NOW });
    const stored = async (urn: string) => (await api.store.latest([urn], ['logicalParent'])).get(urn)?.get('logicalParent')?.value;
    return { ...api, stored };
  };
  const editor = () => actor('urn:li:corpuser:editor', Privilege.EDIT_ENTITY);

  it('reads the entity the stored edge points to (stored or not), for a dataset and a field; null when none is stored', async () => {
    const { service, run } = await setup();
    const edge = (urn: string) => ({ parent: { destinationUrn: urn, created: { time: 1, actor: 'urn:li:corpuser:ingest' } } });
    await service.ingest(
      SYSTEM_ACTOR,
      [upsert(ORDERS, 'logicalParent', edge(LOGICAL)), upsert(field(ORDERS, 'id'), 'logicalParent', edge(field(LOGICAL, 'id')))],
      { batch: false },
    );
    expect(await read(run, READ, { orders: ORDERS, field: field(ORDERS, 'id') })).toEqual({
      dataset: { logicalParent: { urn: LOGICAL, type: 'DATASET' }, parent: { urn: LOGICAL } },
      field: { logicalParent: { urn: field(LOGICAL, 'id'), type: 'SCHEMA_FIELD' } },
    });
    expect(await read(run, READ, { orders: CUSTOMERS, field: field(CUSTOMERS, 'id') })).toEqual({
      dataset: { logicalParent: null, parent: null },
      // Nothing is written on that field: `entity(urn:)` answers it from its urn (DataHub's SchemaFieldType), no parent.
      field: { logicalParent: null },
    });
  });

  it('setLogicalParent writes the edge stamped with the caller, and removes it without a parent; EDIT_ENTITY is asked', async () => {
    const { run, stored } = await setup();
    const input = { resourceUrn: ORDERS, parentUrn: LOGICAL };
    const refused = await run(SET, { input }, actor('urn:li:corpuser:reader'));
    expect(errorOf(refused)).toEqual([
      { message: 'Unauthorized to perform this action. Please contact your DataHub administrator.', code: 403 },
    ]);
    expect(await stored(ORDERS)).toBeUndefined();

    expect((await run(SET, { input }, editor())).data).toEqual({ setLogicalParent: true });
    const stamp = { time: NOW, actor: 'urn:li:corpuser:editor' };
    expect(await stored(ORDERS)).toEqual({ parent: { destinationUrn: LOGICAL, created: stamp, lastModified: stamp } });
    expect((await read(run, READ, { orders: ORDERS, field: field(ORDERS, 'id') })).dataset.logicalParent).toEqual({
      urn: LOGICAL,
      type: 'DATASET',
    });

    // A field of a stored dataset may be given a parent too.
    const fieldInput = { resourceUrn: field(ORDERS, 'id'), parentUrn: field(LOGICAL, 'id') };
    expect((await run(SET, { input: fieldInput }, editor())).data).toEqual({ setLogicalParent: true });
    expect((await read(run, READ, { orders: ORDERS, field: field(ORDERS, 'id') })).field.logicalParent).toEqual({
      urn: field(LOGICAL, 'id'),
      type: 'SCHEMA_FIELD',
    });

    expect((await run(SET, { input: { resourceUrn: ORDERS, parentUrn: null } }, editor())).data).toEqual({ setLogicalParent: true });
    expect(await stored(ORDERS)).toEqual({});
    expect((await read(run, READ, { orders: ORDERS, field: field(ORDERS, 'id') })).dataset.logicalParent).toBeNull();
  });

  it('refuses a malformed urn or an absent resource with a 400 naming it, writing nothing', async () => {
    const { run, stored } = await setup();
    const ABSENT = 'urn:li:dataset:(urn:li:dataPlatform:mysql,northwind.absent,PROD)';
    expect(errorOf(await run(SET, { input: { resourceUrn: ORDERS, parentUrn: 'not-a-urn' } }, editor()))).toEqual([
      { message: 'Invalid urn: not-a-urn', code: 400 },
    ]);
    expect(errorOf(await run(SET, { input: { resourceUrn: ABSENT, parentUrn: LOGICAL } }, editor()))).toEqual([
      { message: `Failed to set Logical Parent on entity ${ABSENT}. Entity does not exist.`, code: 400 },
    ]);
    expect(await stored(ORDERS)).toBeUndefined();
    expect(await stored(ABSENT)).toBeUndefined();
  });
});

describe('lineage of the ML types (EntityLineageResultResolver, as DataHub wires it on MLModel, MLModelGroup, MLFeature, MLFeatureTable, MLPrimaryKey)', () => {
  it('answers one hop of their lineage edges: features and groups of a model, the sources of features and primary keys', async () => {
    const { service, run } = await golden();
    const MODEL = 'urn:li:mlModel:(urn:li:dataPlatform:sagemaker,churn,PROD)';
    const GROUP = 'urn:li:mlModelGroup:(urn:li:dataPlatform:sagemaker,churn-models,PROD)';
    const FEATURE = 'urn:li:mlFeature:(customers,tenure)';
    const KEY = 'urn:li:mlPrimaryKey:(customers,customer_id)';
    const TABLE = 'urn:li:mlFeatureTable:(urn:li:dataPlatform:feast,customers)';
    await service.ingest(
      SYSTEM_ACTOR,
      [
        upsert(MODEL, 'mlModelProperties', { mlFeatures: [FEATURE], groups: [GROUP] }),
        upsert(GROUP, 'mlModelGroupProperties', {}),
        upsert(FEATURE, 'mlFeatureProperties', { sources: [CUSTOMERS] }),
        upsert(KEY, 'mlPrimaryKeyProperties', { sources: [CUSTOMERS] }),
        upsert(TABLE, 'mlFeatureTableProperties', { mlFeatures: [FEATURE], mlPrimaryKeys: [KEY] }),
      ],
      { batch: false },
    );
    const hop = (direction: string) =>
      `lineage(input: { direction: ${direction}, start: 0, count: 10 }) { total relationships { type entity { urn } } }`;
    const data = await read(
      run,
      `query($model: String!, $group: String!, $feature: String!, $key: String!, $table: String!) {
        model: mlModel(urn: $model) { up: ${hop('UPSTREAM')} down: ${hop('DOWNSTREAM')} }
        group: mlModelGroup(urn: $group) { up: ${hop('UPSTREAM')} }
        feature: mlFeature(urn: $feature) { up: ${hop('UPSTREAM')} down: ${hop('DOWNSTREAM')} }
        key: mlPrimaryKey(urn: $key) { up: ${hop('UPSTREAM')} }
        table: mlFeatureTable(urn: $table) { ... on EntityWithRelationships { up: ${hop('UPSTREAM')} } }
      }`,
      { model: MODEL, group: GROUP, feature: FEATURE, key: KEY, table: TABLE },
    );
    const edges = (...pairs: [string, string][]) => ({
      total: pairs.length,
      relationships: pairs.map(([type, urn]) => ({ type, entity: { urn } })),
    });
    expect(data).toEqual({
      model: { up: edges(['Consumes', FEATURE]), down: edges(['MemberOf', GROUP]) },
      group: { up: edges(['MemberOf', MODEL]) },
      feature: { up: edges(['DerivedFrom', CUSTOMERS]), down: edges(['Consumes', MODEL]) },
      key: { up: edges(['DerivedFrom', CUSTOMERS]) },
      // A feature table's features are no lineage edges (Contains is not lineage in DataHub's model).
      table: { up: edges() },
    });
  });
});

describe('lineage of a run, an ER model relationship and a restricted entity (EntityLineageResultResolver on DataProcessInstance, ERModelRelationship, Restricted)', () => {
  it("a run's input edges are upstream of it and its output edges downstream; its plain `inputs`/`outputs` are no lineage", async () => {
    const { run, service } = await golden();
    const FIVETRAN_RUN = 'urn:li:dataProcessInstance:ee88d32dbe3133a23a9023c097050190';
    const RUN = 'urn:li:dataProcessInstance:mysql-load-1';
    await service.ingest(
      SYSTEM_ACTOR,
      [
        upsert(RUN, 'dataProcessInstanceInput', { inputs: [], inputEdges: [{ destinationUrn: CUSTOMERS }] }),
        upsert(RUN, 'dataProcessInstanceOutput', { outputs: [], outputEdges: [{ destinationUrn: ORDERS }] }),
      ],
      { batch: false },
    );
    const hop = (direction: string) =>
      `lineage(input: { direction: ${direction}, start: 0, count: 10, includeGhostEntities: true }) { total relationships { type entity { urn } } }`;
    const LINEAGE = `query($urn: String!) { dataProcessInstance(urn: $urn) { up: ${hop('UPSTREAM')} down: ${hop('DOWNSTREAM')} } }`;
    const edges = (type: string, urns: string[]) => ({ total: urns.length, relationships: urns.map((urn) => ({ type, entity: { urn } })) });
    expect((await read(run, LINEAGE, { urn: RUN })).dataProcessInstance).toEqual({
      up: edges('DataProcessInstanceConsumes', [CUSTOMERS]),
      down: edges('DataProcessInstanceProduces', [ORDERS]),
    });
    // Fivetran's run names its datasets in `inputs`/`outputs` only (Consumes/Produces, not lineage in DataHub's model).
    expect((await read(run, LINEAGE, { urn: FIVETRAN_RUN })).dataProcessInstance).toEqual({ up: edges('', []), down: edges('', []) });
  });

  it('an ER model relationship answers its lineage through EntityWithRelationships: none, as no lineage edge leads to or from it', async () => {
    const { run, service } = await golden();
    const JOIN = 'urn:li:erModelRelationship:orders_customers';
    await service.ingest(
      SYSTEM_ACTOR,
      [
        upsert(JOIN, 'erModelRelationshipProperties', {
          name: 'orders_customers',
          source: ORDERS,
          destination: CUSTOMERS,
          relationshipFieldMappings: [{ sourceField: 'customer_id', destinationField: 'id' }],
          cardinality: 'N_ONE',
        }),
      ],
      { batch: false },
    );
    const data = await read(
      run,
      `query($urns: [String!]!) { entities(urns: $urns) { urn ... on EntityWithRelationships { lineage(input: { direction: UPSTREAM, includeGhostEntities: true }) { total } } } }`,
      { urns: [JOIN] },
    );
    expect(data.entities).toEqual([{ urn: JOIN, lineage: { total: 0 } }]);
  });
});
