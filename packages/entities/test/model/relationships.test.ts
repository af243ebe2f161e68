import { describe, expect, it } from 'vitest';
import { LINEAGE_EDGE_KINDS, lineageEdges } from '../../src/model/lineage';
import { RELATIONSHIP_TYPES, declaresEdges, edgesOf, fieldEdgesOf } from '../../src/model/relationships';

const JDOE = 'urn:li:corpuser:jdoe';
const ADMINS = 'urn:li:corpGroup:admins';
const PII = 'urn:li:tag:pii';
const GOLD = 'urn:li:tag:gold';
const LEGACY = 'urn:li:tag:legacy';
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const USERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.users,PROD)';
const REVENUE = 'urn:li:dataset:(urn:li:dataPlatform:snowflake,analytics.revenue,PROD)';
const EXTRACT = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),extract)';
const CLEAN = 'urn:li:dataJob:(urn:li:dataFlow:(airflow,etl,PROD),clean)';
const CHART_A = 'urn:li:chart:(looker,orders_by_day)';
const CHART_B = 'urn:li:chart:(looker,revenue_by_region)';
const FINANCE = 'urn:li:domain:finance';
const CONTAINER = 'urn:li:container:b41c14bc5cb3ccfbb0433c8cbdef2992';
const STAMP = { time: 1700000000000, actor: JDOE };
const tags = (...urns: string[]) => ({ tags: urns.map((tag) => ({ tag })) });
/** The edges' types and destinations (their stamps are tested below). */
const bare = (aspect: string, value: unknown) => edgesOf(aspect, value).map(({ type, destination }) => ({ type, destination }));
const edge = (destinationUrn: string) => ({ destinationUrn, created: STAMP, lastModified: STAMP });

describe('RELATIONSHIP_TYPES', () => {
  it("lists every relationship name of DataHub's model, sorted, each once", () => {
    expect(RELATIONSHIP_TYPES).toEqual([...new Set(RELATIONSHIP_TYPES)].sort());
    for (const name of ['AssociatedWith', 'Consumes', 'Contains', 'DownstreamOf', 'IsPartOf', 'OwnedBy', 'Produces', 'TaggedWith'])
      expect(RELATIONSHIP_TYPES).toContain(name);
    for (const name of ['TermedWith', 'SchemaFieldTaggedWith', 'MemberOf', 'DerivedFrom', 'IncidentOn', 'ownershipType', 'IsMemberOfGroup'])
      expect(RELATIONSHIP_TYPES).toContain(name);
    expect(RELATIONSHIP_TYPES).toHaveLength(68);
  });
});

describe('LINEAGE_EDGE_KINDS', () => {
  const kinds = (entity: string) =>
    LINEAGE_EDGE_KINDS.filter((kind) => kind.entity === entity).map(({ aspect, type, sourceIsDownstream }) => [
      aspect,
      type,
      sourceIsDownstream,
    ]);

  it("are the model's lineage relationships by declaring entity and aspect, Produces, UsedBy and MemberOf pointing downstream", () => {
    expect(kinds('dataset')).toEqual([['upstreamLineage', 'DownstreamOf', true]]);
    expect(kinds('dataJob')).toEqual([
      ['dataJobInputOutput', 'Consumes', true],
      ['dataJobInputOutput', 'DownstreamOf', true],
      ['dataJobInputOutput', 'Produces', false],
    ]);
    expect(kinds('mlModel')).toEqual([
      ['mlModelProperties', 'Consumes', true],
      ['mlModelProperties', 'MemberOf', false],
      ['mlModelProperties', 'TrainedBy', true],
      ['mlModelProperties', 'UsedBy', false],
    ]);
    expect(kinds('dataProcessInstance')).toEqual([
      ['dataProcessInstanceInput', 'DataProcessInstanceConsumes', true],
      ['dataProcessInstanceOutput', 'DataProcessInstanceProduces', false],
    ]);
    expect(kinds('corpuser')).toEqual([]);
    // Column-level lineage: a field DownstreamOf the fields it is computed from, by the aspect declaring it elsewhere.
    expect(kinds('schemaField')).toEqual([
      ['dataJobInputOutput', 'DownstreamOf', true],
      ['inputFields', 'DownstreamOf', true],
      ['upstreamLineage', 'DownstreamOf', true],
    ]);
    expect(LINEAGE_EDGE_KINDS.some((kind) => kind.type === 'OwnedBy' || kind.aspect === 'groupMembership')).toBe(false);
  });

  it('a walk upstream follows downstream-declared edges out and upstream-declared ones in; downstream the reverse', () => {
    const up = lineageEdges('UPSTREAM');
    const down = lineageEdges('DOWNSTREAM');
    expect(up.outgoing).toContainEqual({ aspect: 'upstreamLineage', type: 'DownstreamOf' });
    expect(up.incoming).toContainEqual({ aspect: 'dataJobInputOutput', type: 'Produces' });
    expect(down.outgoing).toEqual(up.incoming);
    expect(down.incoming).toEqual(up.outgoing);
  });
});

describe('edgesOf, one row of the §7.6 table each', () => {
  it('OwnedBy: ownership.owners[].owner', () => {
    const ownership = {
      owners: [
        { owner: JDOE, type: 'TECHNICAL_OWNER', source: { type: 'MANUAL' } },
        { owner: ADMINS, type: 'CUSTOM', typeUrn: 'urn:li:ownershipType:__system__business_owner' },
      ],
      ownerTypes: {},
      lastModified: STAMP,
    };
    expect(bare('ownership', ownership)).toEqual([
      { type: 'OwnedBy', destination: JDOE },
      { type: 'OwnedBy', destination: ADMINS },
      { type: 'ownershipType', destination: 'urn:li:ownershipType:__system__business_owner' },
    ]);
  });

  it('TaggedWith: globalTags.tags[].tag', () => {
    expect(bare('globalTags', { tags: [{ tag: PII, context: 'ingested' }, { tag: GOLD }] })).toEqual([
      { type: 'TaggedWith', destination: PII },
      { type: 'TaggedWith', destination: GOLD },
    ]);
  });

  it("SchemaFieldTaggedWith: field tags of schemaMetadata (the field overrides the tag record's name)", () => {
    const schemaMetadata = {
      schemaName: 'db.orders',
      platform: 'urn:li:dataPlatform:hive',
      version: 0,
      hash: '',
      platformSchema: { 'com.linkedin.schema.MySqlDDL': { tableSchema: '' } },
      created: STAMP,
      lastModified: STAMP,
      fields: [
        { fieldPath: 'id', nativeDataType: 'bigint', type: { type: { 'com.linkedin.schema.NumberType': {} } } },
        {
          fieldPath: 'email',
          nativeDataType: 'string',
          type: { type: { 'com.linkedin.schema.StringType': {} } },
          globalTags: tags(PII, GOLD),
        },
        { fieldPath: 'phone', nativeDataType: 'string', type: { type: {} }, globalTags: tags(PII) },
      ],
    };
    expect(bare('schemaMetadata', schemaMetadata)).toEqual([
      { type: 'SchemaFieldTaggedWith', destination: PII },
      { type: 'SchemaFieldTaggedWith', destination: GOLD },
    ]);
  });

  it('EditableSchemaFieldTaggedWith and EditableSchemaFieldWithGlossaryTerm: editableSchemaMetadata', () => {
    const editableSchemaMetadata = {
      created: STAMP,
      lastModified: STAMP,
      editableSchemaFieldInfo: [
        { fieldPath: 'email', description: 'Customer email', globalTags: tags(LEGACY) },
        { fieldPath: 'id', glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:Id' }], auditStamp: STAMP } },
      ],
    };
    expect(bare('editableSchemaMetadata', editableSchemaMetadata)).toEqual([
      { type: 'EditableSchemaFieldTaggedWith', destination: LEGACY },
      { type: 'EditableSchemaFieldWithGlossaryTerm', destination: 'urn:li:glossaryTerm:Id' },
    ]);
  });

  it('DownstreamOf: upstreamLineage.upstreams[].dataset and fine-grained upstream fields', () => {
    const upstreamLineage = {
      upstreams: [
        { auditStamp: STAMP, dataset: ORDERS, type: 'TRANSFORMED' },
        { auditStamp: STAMP, dataset: USERS, type: 'COPY' },
      ],
      fineGrainedLineages: [{ upstreamType: 'FIELD_SET', upstreams: [`urn:li:schemaField:(${ORDERS},id)`], downstreamType: 'FIELD' }],
    };
    expect(bare('upstreamLineage', upstreamLineage)).toEqual([
      { type: 'DownstreamOf', destination: ORDERS },
      { type: 'DownstreamOf', destination: USERS },
      { type: 'DownstreamOf', destination: `urn:li:schemaField:(${ORDERS},id)` },
    ]);
  });

  it('AssociatedWith: domains.domains[]', () => {
    expect(bare('domains', { domains: [FINANCE] })).toEqual([{ type: 'AssociatedWith', destination: FINANCE }]);
  });

  it('IsPartOf: container.container', () => {
    expect(bare('container', { container: CONTAINER })).toEqual([{ type: 'IsPartOf', destination: CONTAINER }]);
  });

  it("IsPartOf: a data job's key names its flow", () => {
    expect(bare('dataJobKey', { flow: 'urn:li:dataFlow:(airflow,etl,PROD)', jobId: 'load' })).toEqual([
      { type: 'IsPartOf', destination: 'urn:li:dataFlow:(airflow,etl,PROD)' },
    ]);
  });

  it('Contains and Consumes: dashboardInfo charts/chartEdges and datasets/datasetEdges', () => {
    const dashboardInfo = {
      title: 'Orders',
      description: 'Daily orders',
      customProperties: {},
      lastModified: { created: STAMP, lastModified: STAMP },
      charts: [CHART_A],
      chartEdges: [edge(CHART_B)],
      datasets: [ORDERS],
      datasetEdges: [edge(REVENUE)],
    };
    expect(bare('dashboardInfo', dashboardInfo)).toEqual([
      { type: 'Contains', destination: CHART_A },
      { type: 'Contains', destination: CHART_B },
      { type: 'Consumes', destination: ORDERS },
      { type: 'Consumes', destination: REVENUE },
    ]);
  });

  it('Consumes: chartInfo.inputs[] as union members {"string": urn}, and inputEdges[]', () => {
    const chartInfo = {
      title: 'Orders by day',
      description: '',
      lastModified: { created: STAMP, lastModified: STAMP },
      inputs: [ORDERS, { string: USERS }],
      inputEdges: [edge(REVENUE)],
      type: 'BAR',
    };
    expect(bare('chartInfo', chartInfo)).toEqual([
      { type: 'Consumes', destination: USERS },
      { type: 'Consumes', destination: REVENUE },
    ]);
  });

  it('Consumes, Produces and DownstreamOf: dataJobInputOutput', () => {
    const dataJobInputOutput = {
      inputDatasets: [ORDERS],
      inputDatasetEdges: [edge(USERS)],
      outputDatasets: [REVENUE],
      outputDatasetEdges: [edge('urn:li:dataset:(urn:li:dataPlatform:s3,bucket/revenue,PROD)')],
      inputDatajobs: [EXTRACT],
      inputDatajobEdges: [edge(CLEAN)],
      inputDatasetFields: [`urn:li:schemaField:(${ORDERS},id)`],
      outputDatasetFields: [],
    };
    expect(bare('dataJobInputOutput', dataJobInputOutput)).toEqual([
      { type: 'Consumes', destination: ORDERS },
      { type: 'Consumes', destination: USERS },
      { type: 'Produces', destination: REVENUE },
      { type: 'Produces', destination: 'urn:li:dataset:(urn:li:dataPlatform:s3,bucket/revenue,PROD)' },
      { type: 'DownstreamOf', destination: EXTRACT },
      { type: 'DownstreamOf', destination: CLEAN },
      { type: 'Consumes', destination: `urn:li:schemaField:(${ORDERS},id)` },
    ]);
  });

  it('TermedWith: glossaryTerms.terms[].urn', () => {
    expect(bare('glossaryTerms', { terms: [{ urn: 'urn:li:glossaryTerm:Id' }], auditStamp: STAMP })).toEqual([
      { type: 'TermedWith', destination: 'urn:li:glossaryTerm:Id' },
    ]);
  });

  it('aspects without relationship fields declare no edges', () => {
    expect(bare('datasetProperties', { name: 'orders', customProperties: {}, tags: [] })).toEqual([]);
    expect(bare('status', { removed: true })).toEqual([]);
    expect(bare('toString', {})).toEqual([]);
    expect(bare('__proto__', {})).toEqual([]);
  });
});

describe('edgesOf stamps', () => {
  it('carries when and by whom an edge was made and changed, and whether it was drawn by hand', () => {
    const upstreamLineage = {
      upstreams: [
        { dataset: ORDERS, type: 'TRANSFORMED', auditStamp: { time: 2000, actor: JDOE }, created: { time: 1000, actor: ADMINS } },
        { dataset: USERS, type: 'COPY', auditStamp: { time: 0, actor: JDOE }, properties: { source: 'UI' } },
      ],
    };
    expect(edgesOf('upstreamLineage', upstreamLineage)).toEqual([
      { type: 'DownstreamOf', destination: ORDERS, createdOn: 1000, createdActor: ADMINS, updatedOn: 2000, updatedActor: JDOE },
      { type: 'DownstreamOf', destination: USERS, updatedOn: 0, updatedActor: JDOE, manual: true },
    ]);
  });

  it('fills a destination named twice from both fields (inputDatasets, then inputDatasetEdges)', () => {
    expect(edgesOf('dataJobInputOutput', { inputDatasets: [ORDERS], outputDatasets: [], inputDatasetEdges: [edge(ORDERS)] })).toEqual([
      { type: 'Consumes', destination: ORDERS, createdOn: STAMP.time, createdActor: JDOE, updatedOn: STAMP.time, updatedActor: JDOE },
    ]);
  });
});

describe('edgesOf deduplication', () => {
  it('keeps the first occurrence of a (type, destination) pair', () => {
    expect(bare('globalTags', tags(PII, GOLD, PII))).toEqual([
      { type: 'TaggedWith', destination: PII },
      { type: 'TaggedWith', destination: GOLD },
    ]);
    expect(
      edgesOf('ownership', {
        owners: [
          { owner: JDOE, type: 'TECHNICAL_OWNER' },
          { owner: JDOE, type: 'DATA_STEWARD' },
        ],
      }),
    ).toEqual([{ type: 'OwnedBy', destination: JDOE }]);
  });

  it('merges a urn listed both in the legacy array and in the edge array', () => {
    expect(bare('dashboardInfo', { charts: [CHART_A], chartEdges: [edge(CHART_A)], datasets: [], datasetEdges: [] })).toEqual([
      { type: 'Contains', destination: CHART_A },
    ]);
    expect(bare('chartInfo', { inputs: [{ string: ORDERS }], inputEdges: [edge(ORDERS)] })).toEqual([
      { type: 'Consumes', destination: ORDERS },
    ]);
  });

  it('deduplicates field tags across fields', () => {
    const schemaMetadata = {
      fields: [
        { fieldPath: 'a', globalTags: tags(PII) },
        { fieldPath: 'b', globalTags: tags(PII) },
      ],
    };
    expect(bare('schemaMetadata', schemaMetadata)).toEqual([{ type: 'SchemaFieldTaggedWith', destination: PII }]);
  });

  it('keeps one urn under different types', () => {
    const dataJobInputOutput = { inputDatasets: [ORDERS], outputDatasets: [ORDERS] };
    expect(bare('dataJobInputOutput', dataJobInputOutput)).toEqual([
      { type: 'Consumes', destination: ORDERS },
      { type: 'Produces', destination: ORDERS },
    ]);
  });
});

describe('edgesOf on malformed values', () => {
  it('answers [] for values that are not objects', () => {
    for (const value of [null, undefined, 42, 'urn:li:tag:pii', true, [PII], [{ tag: PII }]]) {
      expect(bare('globalTags', value)).toEqual([]);
      expect(bare('container', value)).toEqual([]);
    }
  });

  it('answers [] when the arrays are missing, null or of the wrong kind', () => {
    expect(bare('ownership', {})).toEqual([]);
    expect(bare('ownership', { owners: null })).toEqual([]);
    expect(bare('globalTags', { tags: { tag: PII } })).toEqual([]);
    expect(bare('domains', { domains: FINANCE })).toEqual([]);
    expect(bare('container', { container: null })).toEqual([]);
    expect(bare('container', { container: { urn: CONTAINER } })).toEqual([]);
    expect(bare('schemaMetadata', { fields: 'id' })).toEqual([]);
    expect(bare('dashboardInfo', { charts: null, chartEdges: 'x', datasets: {}, datasetEdges: 7 })).toEqual([]);
    expect(bare('dataJobInputOutput', { inputDatasets: null })).toEqual([]);
  });

  it('skips malformed items and keeps the good ones', () => {
    const ownership = { owners: [null, 7, 'urn:li:corpuser:bare', { owner: 42 }, { owner: '' }, { type: 'NONE' }, { owner: JDOE }] };
    expect(bare('ownership', ownership)).toEqual([{ type: 'OwnedBy', destination: JDOE }]);

    const globalTags = { tags: [null, { tag: null }, { tag: { urn: PII } }, [], { tag: GOLD }] };
    expect(bare('globalTags', globalTags)).toEqual([{ type: 'TaggedWith', destination: GOLD }]);

    const schemaMetadata = {
      fields: [null, { fieldPath: 'a', globalTags: null }, { fieldPath: 'b', globalTags: { tags: null } }, { globalTags: tags(PII) }],
    };
    expect(bare('schemaMetadata', schemaMetadata)).toEqual([{ type: 'SchemaFieldTaggedWith', destination: PII }]);

    const chartInfo = { inputs: [null, { string: 3 }, { urn: ORDERS }, 5, USERS], inputEdges: [null, {}, { destinationUrn: null }] };
    expect(bare('chartInfo', chartInfo)).toEqual([]);

    const dataJobInputOutput = { inputDatasets: [null, 1, ORDERS], inputDatajobEdges: [{ sourceUrn: EXTRACT }, edge(CLEAN)] };
    expect(bare('dataJobInputOutput', dataJobInputOutput)).toEqual([
      { type: 'Consumes', destination: ORDERS },
      { type: 'DownstreamOf', destination: CLEAN },
    ]);
  });
});

describe('fieldEdgesOf (column-level lineage, as DataHub indexes it beside @Relationship)', () => {
  const field = (dataset: string, path: string) => `urn:li:schemaField:(${dataset},${path})`;

  it('a fineGrainedLineage: every downstream DownstreamOf every upstream; the lineages read up to one lacking a list', () => {
    const value = {
      upstreams: [{ dataset: ORDERS, type: 'TRANSFORMED', auditStamp: STAMP }],
      fineGrainedLineages: [
        {
          upstreamType: 'FIELD_SET',
          downstreamType: 'FIELD',
          upstreams: [field(ORDERS, 'id'), field(USERS, 'id')],
          downstreams: [field(REVENUE, 'id')],
        },
        { upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [field(ORDERS, 'id')], downstreams: [field(REVENUE, 'id')] },
        { upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [field(ORDERS, 'amount')] },
        { upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [field(ORDERS, 'x')], downstreams: [field(REVENUE, 'x')] },
      ],
    };
    const expected = [
      { source: field(REVENUE, 'id'), type: 'DownstreamOf', destination: field(ORDERS, 'id') },
      { source: field(REVENUE, 'id'), type: 'DownstreamOf', destination: field(USERS, 'id') },
    ];
    expect(fieldEdgesOf(REVENUE, 'upstreamLineage', value)).toEqual(expected);
    expect(
      fieldEdgesOf(EXTRACT, 'dataJobInputOutput', {
        inputDatasets: [],
        outputDatasets: [],
        fineGrainedLineages: value.fineGrainedLineages,
      }),
    ).toEqual(expected);
    // The dataset's own @Relationship edges still name the upstream fields.
    expect(bare('upstreamLineage', value).map((e) => e.destination)).toContain(field(ORDERS, 'id'));
  });

  it("a chart's inputFields: its own field (path escaped) DownstreamOf the field it reads", () => {
    const value = {
      fields: [
        {
          schemaFieldUrn: field(ORDERS, 'amount'),
          schemaField: { fieldPath: 'sum(amount, usd)', nativeDataType: 'int', type: { type: {} } },
        },
        { schemaFieldUrn: field(ORDERS, 'id') },
      ],
    };
    expect(fieldEdgesOf(CHART_A, 'inputFields', value)).toEqual([
      { source: field(CHART_A, 'sum%28amount%2C usd%29'), type: 'DownstreamOf', destination: field(ORDERS, 'amount') },
    ]);
    expect(declaresEdges('inputFields')).toBe(true);
  });

  it('nothing from other aspects or values of the wrong shape', () => {
    expect(fieldEdgesOf(ORDERS, 'globalTags', tags(PII))).toEqual([]);
    expect(fieldEdgesOf(ORDERS, 'upstreamLineage', { fineGrainedLineages: 'no' })).toEqual([]);
    expect(
      fieldEdgesOf(ORDERS, 'upstreamLineage', { fineGrainedLineages: [{ upstreams: [7], downstreams: [field(ORDERS, 'a')] }] }),
    ).toEqual([]);
  });
});
