import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BOOTSTRAP, ingestSnapshots, snapshotsOf } from './support/datahub-files';
import { startMds, type Mds } from './support/mds';

// Datasets over GraphQL (entities-api §9.1-9.2), read from what DataHub's own bootstrap file ingests
// (packages/entities/test/fixtures/datahub/bootstrap_mce.json, source in SOURCES.md).
const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';

const DATASET = `query ($urn: String!) {
  dataset(urn: $urn) {
    urn type name
    platform { urn name properties { displayName datasetNameDelimiter } }
    properties { name description origin customProperties { key value associatedUrn } lastModified { time } }
    schemaMetadata { name platformUrn version hash fields { fieldPath nativeDataType type nullable description tags { tags { tag { urn } } } } }
    tags { tags { tag { urn name properties { name description } } associatedUrn } }
    ownership { owners { owner { ... on CorpUser { urn username } ... on CorpGroup { urn name } } type ownershipType { urn } associatedUrn } lastModified { time actor } }
    institutionalMemory { elements { url label } }
    status { removed }
    exists
  }
}`;

let mds: Mds;
type Snapshot = { urn: string; aspects: Record<string, Record<string, unknown>>[] };
let stored: Map<string, Record<string, unknown>>;

beforeAll(async () => {
  mds = await startMds();
  const snapshots = snapshotsOf(BOOTSTRAP);
  await ingestSnapshots(mds);
  // The aspects of each dataset as the file gives them, by their PDL class's short name.
  stored = new Map();
  for (const snapshot of snapshots) {
    const [, body] = Object.entries(snapshot as Record<string, Snapshot>)[0]!;
    const aspects: Record<string, unknown> = {};
    for (const aspect of body.aspects) for (const [cls, value] of Object.entries(aspect)) aspects[cls.split('.').pop()!] = value;
    stored.set(body.urn, aspects);
  }
});
afterAll(() => mds?.close());

describe('dataset(urn)', () => {
  it('answers DataHub’s sample Hive dataset field by field from its ingested aspects', async () => {
    const file = stored.get(HIVE)! as Record<string, any>;
    const { body } = await mds.graphql(DATASET, { urn: HIVE });
    const dataset = body.data.dataset;
    expect(dataset).toMatchObject({ urn: HIVE, type: 'DATASET', name: 'SampleHiveDataset', exists: true, status: null, properties: null });
    expect(dataset.platform).toEqual({
      urn: 'urn:li:dataPlatform:hive',
      name: 'hive',
      properties: expect.objectContaining({ displayName: 'Hive' }),
    });
    const schema = file.SchemaMetadata;
    expect(dataset.schemaMetadata).toMatchObject({
      name: schema.schemaName,
      platformUrn: schema.platform,
      version: schema.version,
      hash: schema.hash,
    });
    expect(dataset.schemaMetadata.fields.map((f: any) => [f.fieldPath, f.nativeDataType, f.nullable])).toEqual(
      schema.fields.map((f: any) => [f.fieldPath, f.nativeDataType ?? null, f.nullable ?? false]),
    );
    expect(dataset.tags.tags.map((t: any) => [t.tag.urn, t.associatedUrn])).toEqual(file.GlobalTags.tags.map((t: any) => [t.tag, HIVE]));
    // The tag entity the file also holds answers through the tags package.
    const legacy = dataset.tags.tags.find((t: any) => t.tag.urn === 'urn:li:tag:Legacy');
    if (legacy) expect(legacy.tag.properties.name).toBe('Legacy');
    expect(dataset.ownership.owners.map((o: any) => [o.owner.urn, o.type, o.associatedUrn])).toEqual(
      file.Ownership.owners.map((o: any) => [o.owner, o.type, HIVE]),
    );
    expect(dataset.ownership.lastModified).toEqual({ time: file.Ownership.lastModified.time, actor: file.Ownership.lastModified.actor });
    expect(dataset.institutionalMemory.elements.map((e: any) => [e.url, e.label])).toEqual(
      file.InstitutionalMemory.elements.map((e: any) => [e.url, e.description]),
    );
  });

  it('answers datasetProperties with the key’s origin and custom properties as entries', async () => {
    const file = stored.get(KAFKA)! as Record<string, any>;
    const { body } = await mds.graphql(DATASET, { urn: KAFKA });
    expect(body.data.dataset.properties).toEqual({
      name: file.DatasetProperties.name ?? 'SampleKafkaDataset',
      description: file.DatasetProperties.description ?? null,
      origin: 'PROD',
      customProperties: Object.entries(file.DatasetProperties.customProperties ?? {}).map(([key, value]) => ({
        key,
        value,
        associatedUrn: KAFKA,
      })),
      lastModified: { time: 0 },
    });
  });

  it('answers null for an absent dataset or another type’s urn, and 400 for a malformed urn', async () => {
    const absent = await mds.graphql(DATASET, { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,never,PROD)' });
    expect(absent.body).toEqual({ data: { dataset: null } });
    expect((await mds.graphql(DATASET, { urn: 'urn:li:tag:Legacy' })).body).toEqual({ data: { dataset: null } });
    const bad = await mds.graphql(DATASET, { urn: 'not-a-urn' });
    expect(bad.body.errors[0]).toMatchObject({ message: 'Invalid urn: not-a-urn', extensions: { code: 400, type: 'BAD_REQUEST' } });
  });
});

describe('entity, entities, entityExists', () => {
  it('answer any type with a face, in the order asked, null where absent', async () => {
    const query = `query ($urns: [String!]!, $one: String!) {
      entity(urn: $one) { urn type ... on Dataset { name } }
      entities(urns: $urns) { urn type ... on Tag { properties { name } } ... on Dataset { name } }
      exists: entityExists(urn: $one) absent: entityExists(urn: "urn:li:dataset:(urn:li:dataPlatform:hive,never,PROD)")
    }`;
    const urns = ['urn:li:tag:Legacy', 'urn:li:dataset:(urn:li:dataPlatform:hive,never,PROD)', KAFKA];
    const { body } = await mds.graphql(query, { urns, one: HIVE });
    expect(body.data).toEqual({
      entity: { urn: HIVE, type: 'DATASET', name: 'SampleHiveDataset' },
      entities: [
        { urn: 'urn:li:tag:Legacy', type: 'TAG', properties: { name: 'Legacy' } },
        null,
        { urn: KAFKA, type: 'DATASET', name: 'SampleKafkaDataset' },
      ],
      exists: true,
      absent: false,
    });
  });
});

describe('searchAcrossEntities over datasets', () => {
  it('reads a whole page of datasets, with tags, owners and properties, in a constant number of store reads', async () => {
    const page = `query ($count: Int!) { searchAcrossEntities(input: { types: [DATASET], query: "*", count: $count }) {
      total searchResults { entity { urn ... on Dataset { properties { name } tags { tags { tag { urn properties { name } } } } ownership { owners { owner { ... on CorpUser { urn } } } } } } }
    } }`;
    const reads = vi.spyOn(mds.domains.entities.store, 'latest');
    try {
      const { body } = await mds.graphql(page, { count: 50 });
      const results = body.data.searchAcrossEntities.searchResults;
      expect(results.length).toBe(body.data.searchAcrossEntities.total);
      expect(results.length).toBeGreaterThan(5);
      expect(results.some((r: any) => r.entity.tags?.tags.length && r.entity.ownership?.owners.length)).toBe(true);
      // Every dataset's aspects in one read, every tag they carry in one more (each up to 25 entities, the loaders' chunk):
      // not one per field or per result.
      expect(reads.mock.calls.length).toBe(2);
    } finally {
      reads.mockRestore();
    }
  });
});

describe('dashboard, chart, dataFlow, dataJob', () => {
  it('answer DataHub’s sample dashboard, chart, flow and job from their ingested aspects', async () => {
    const query = `{
      dashboard(urn: "urn:li:dashboard:(looker,baz)") { urn type tool dashboardId platform { urn }
        properties { name description customProperties { key value } created { actor } } ownership { owners { owner { ... on CorpGroup { urn } } type } } }
      chart(urn: "urn:li:chart:(looker,baz1)") { chartId properties { name description lastModified { actor } } tags { tags { tag { urn } } } }
      dataFlow(urn: "urn:li:dataFlow:(airflow,dag_abc,PROD)") { orchestrator flowId cluster properties { name description project } }
      dataJob(urn: "urn:li:dataJob:(urn:li:dataFlow:(airflow,dag_abc,PROD),task_123)") { jobId dataFlow { urn properties { name } }
        properties { name description } inputOutput { inputDatasets { urn name } outputDatasets { urn } } }
      wrongType: dashboard(urn: "${HIVE}") { urn }
    }`;
    const { body } = await mds.graphql(query);
    expect(body.errors).toBeUndefined();
    expect(body.data.dashboard).toEqual({
      urn: 'urn:li:dashboard:(looker,baz)',
      type: 'DASHBOARD',
      tool: 'looker',
      dashboardId: 'baz',
      platform: { urn: 'urn:li:dataPlatform:looker' },
      properties: {
        name: 'Baz Dashboard',
        description: 'Baz Dashboard',
        customProperties: [
          { key: 'prop1', value: 'fakeprop' },
          { key: 'prop2', value: 'pikachu' },
        ],
        created: { actor: 'urn:li:corpuser:jdoe' },
      },
      ownership: { owners: [{ owner: { urn: 'urn:li:corpGroup:bfoo' }, type: 'DATAOWNER' }] },
    });
    expect(body.data.chart).toEqual({
      chartId: 'baz1',
      properties: { name: 'Baz Chart 1', description: 'Baz Chart 1', lastModified: { actor: 'urn:li:corpuser:datahub' } },
      tags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy' } }] },
    });
    expect(body.data.dataFlow).toEqual({
      orchestrator: 'airflow',
      flowId: 'dag_abc',
      cluster: 'PROD',
      properties: { name: 'Users', description: 'Constructs the fct_users_deleted and fct_users_created tables', project: null },
    });
    expect(body.data.dataJob).toEqual({
      jobId: 'task_123',
      dataFlow: { urn: 'urn:li:dataFlow:(airflow,dag_abc,PROD)', properties: { name: 'Users' } },
      properties: { name: 'User Creations', description: 'Constructs the fct_users_created from logging_events' },
      inputOutput: {
        inputDatasets: [{ urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)', name: 'logging_events' }],
        outputDatasets: [{ urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)' }],
      },
    });
    expect(body.data.wrongType).toBeNull();
  });

  it('are searched with the others: a query finds the dashboard, typed as such', async () => {
    const { body } = await mds.graphql(`{ searchAcrossEntities(input: { query: "baz" }) { searchResults { entity { urn type } } } }`);
    const found = body.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string; type: string } }) => [
      r.entity.type,
      r.entity.urn,
    ]);
    expect(found).toEqual(
      expect.arrayContaining([
        ['DASHBOARD', 'urn:li:dashboard:(looker,baz)'],
        ['CHART', 'urn:li:chart:(looker,baz1)'],
      ]),
    );
  });
});

describe('searchAcrossEntities filters and facets (entities-api §9.3)', () => {
  const SEARCH = `query ($input: SearchAcrossEntitiesInput!) { searchAcrossEntities(input: $input) {
    total searchResults { entity { urn } } facets { field displayName aggregations { value count entity { urn ... on Tag { properties { name } } } } }
  } }`;
  const search = async (input: Record<string, unknown>) =>
    (await mds.graphql(SEARCH, { input: { query: '*', types: ['DATASET'], count: 50, ...input } })).body;

  it('filters with orFilters, conditions and negation, and counts facets over every match', async () => {
    const hive = await search({ orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'] }] }] });
    const urns = hive.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn);
    expect(urns.length).toBeGreaterThan(2);
    expect(urns.every((urn: string) => urn.startsWith('urn:li:dataset:(urn:li:dataPlatform:hive,'))).toBe(true);
    const notHive = await search({ orFilters: [{ and: [{ field: 'platform', values: ['urn:li:dataPlatform:hive'], negated: true }] }] });
    expect(notHive.data.searchAcrossEntities.total + hive.data.searchAcrossEntities.total).toBe(
      (await search({})).data.searchAcrossEntities.total,
    );
    const startsWith = await search({
      filters: [{ field: 'urn', values: ['urn:li:dataset:(urn:li:dataPlatform:kafka'], condition: 'START_WITH' }],
    });
    expect(startsWith.data.searchAcrossEntities.searchResults).toEqual([{ entity: { urn: KAFKA } }]);
    // Facets: platforms counted over the whole match set, tags naming their entity.
    const facets = Object.fromEntries(hive.data.searchAcrossEntities.facets.map((f: { field: string }) => [f.field, f]));
    expect(facets.platform).toMatchObject({
      displayName: 'Platform',
      aggregations: [{ value: 'urn:li:dataPlatform:hive', count: urns.length }],
    });
    expect(facets.tags.aggregations).toContainEqual({
      value: 'urn:li:tag:Legacy',
      count: 1,
      entity: { urn: 'urn:li:tag:Legacy', properties: { name: 'Legacy' } },
    });
  });

  it('honours skipAggregates, maxAggValues, includeSoftDeleted and sort; ANCESTORS_INCL on a flat field compares as EQUAL', async () => {
    expect((await search({ searchFlags: { skipAggregates: true } })).data.searchAcrossEntities.facets).toEqual([]);
    const capped = await search({ types: [], searchFlags: { maxAggValues: 1 } });
    expect(capped.data.searchAcrossEntities.facets.find((f: { field: string }) => f.field === 'platform').aggregations).toHaveLength(1);
    const sorted = await search({ sortInput: { sortCriteria: [{ field: 'urn', sortOrder: 'DESCENDING' }] } });
    const urns = sorted.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn);
    expect(urns).toEqual([...urns].sort().reverse());
    await mds.graphql(`mutation { batchUpdateSoftDeleted(input: { urns: ["${KAFKA}"], deleted: true }) }`);
    const kafka = [{ field: 'urn', values: [KAFKA] }];
    expect((await search({ filters: kafka })).data.searchAcrossEntities.total).toBe(0);
    expect((await search({ filters: kafka, searchFlags: { includeSoftDeleted: true } })).data.searchAcrossEntities.total).toBe(1);
    await mds.graphql(`mutation { batchUpdateSoftDeleted(input: { urns: ["${KAFKA}"], deleted: false }) }`);
    // ANCESTORS_INCL on a field without a hierarchy (not domains or container) compares as EQUAL.
    const platform = (value: string) =>
      search({ orFilters: [{ and: [{ field: 'platform', values: [value], condition: 'ANCESTORS_INCL' }] }] });
    expect((await platform('x')).data.searchAcrossEntities.total).toBe(0);
    expect((await platform('urn:li:dataPlatform:kafka')).data.searchAcrossEntities.total).toBe(1);
  });

  it('compares a DATETIME field as numbers and a has-values field as booleans; a value of another kind is a 400 naming the field', async () => {
    // Modified at 999 (three digits) and 1,700,000,000,000 (thirteen): as text '999' > '1700000000000'.
    const urnOf = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,typed_filters.${name},PROD)`;
    for (const [name, time] of [
      ['early', 999],
      ['late', 1_700_000_000_000],
    ] as const) {
      const proposal = {
        entityType: 'dataset',
        entityUrn: urnOf(name),
        aspectName: 'datasetProperties',
        changeType: 'UPSERT',
        aspect: { contentType: 'application/json', value: JSON.stringify({ name, lastModified: { time } }) },
      };
      expect((await mds.post('/aspects?action=ingestProposal', { proposal })).status).toBe(200);
    }
    const found = async (field: string, condition: string, values: string[]) => {
      const mine = { field: 'urn', values: ['urn:li:dataset:(urn:li:dataPlatform:hive,typed_filters.'], condition: 'START_WITH' };
      const body = await search({ orFilters: [{ and: [mine, { field, condition, values }] }] });
      expect(body.errors).toBeUndefined();
      return body.data.searchAcrossEntities.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn);
    };
    expect(await found('lastModifiedAt', 'GREATER_THAN', ['1000'])).toEqual([urnOf('late')]);
    expect(await found('lastModifiedAt', 'LESS_THAN_OR_EQUAL_TO', ['999'])).toEqual([urnOf('early')]);
    expect(await found('hasDescription', 'EQUAL', ['FALSE'])).toEqual([urnOf('early'), urnOf('late')]);

    const refused = await search({ orFilters: [{ and: [{ field: 'lastModifiedAt', values: ['yesterday'], condition: 'GREATER_THAN' }] }] });
    expect(refused.errors).toEqual([
      expect.objectContaining({
        message: 'Filter on lastModifiedAt needs numbers (a count, or a time in epoch milliseconds): "yesterday" is not one',
        extensions: expect.objectContaining({ code: 400 }),
      }),
    ]);
  });
});
