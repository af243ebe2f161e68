import { ALL_PRIVILEGES, ROOT_ACTOR_URN } from '@mds/auth';
import { openPostgresDatabase } from '@mds/db';
import { testDatabases } from '@mds/db/testing';
import { createTimeseries, postgresDocumentCounts } from '@mds/timeseries';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compose } from '../src/compose';
import { loadConfig } from '../src/config';
import { freshDataDir, runCli, type ChildServer } from './support/child';
import { BOOTSTRAP } from './support/datahub-files';
import { spawnLive } from './support/live';
import type { ApiClient } from './support/api-client';
import { clientOf, CREATE_TAG, datasetProperties, datasetUrn, ME, sharedSecrets, spawnReplica } from './support/replicas';
import { ingestRange, profileProposal, T0 } from './support/timeseries-data';

// `mds migrate-to-postgres --from DATA_DIR`: an embedded installation (DataHub's bootstrap file ingested with
// `mds ingest`, a tag, an Editor with a token, time series: profiles and operations of several datasets, a dashboard's
// usage, and 12,000 profiles of one table, more than one batch of the copy) copied into an empty PostgreSQL
// database, then served by a replica that answers as the embedded server did.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const ANSWERS = `{
  dataset(urn: "${HIVE}") { urn properties { description } schemaMetadata { fields { fieldPath } } tags { tags { tag { urn } } } ownership { owners { owner { ... on CorpUser { urn } } } } }
  tag(urn: "urn:li:tag:migrated") { urn properties { name description } }
  sample: search(input: { type: DATASET, query: "sample", count: 10 }) { total }
  searchAcrossEntities(input: { types: [DATASET, TAG], query: "*", count: 100 }) { total searchResults { entity { urn } } facets { field aggregations { value count } } }
  relationships: dataset(urn: "${HIVE}") { lineage(input: { direction: UPSTREAM }) { total relationships { entity { urn } } } }
}`;

// Time series as DataHub's emitters send them: every identity field (eventGranularity, partitionSpec, messageId) and
// systemMetadata set on the profiles, operations with every field GraphQL answers.
const DAY = 86_400_000;
const PROFILED = [HIVE, datasetUrn('db.orders'), datasetUrn('db.customers')];
/** DataHub's bootstrap file has time series too: two profiles and one usage statistics of HIVE. */
const BOOTSTRAP_PROFILES = 2;
const OPERATED = [HIVE, datasetUrn('db.orders')];
const DASHBOARD = 'urn:li:dashboard:(looker,sales)';
/** The table ingestRange profiles, LARGE_COUNT times. */
const LARGE = profileProposal(T0).entityUrn;
const proposal = (entityType: string, entityUrn: string, aspectName: string, value: object, systemMetadata?: object) => ({
  entityType,
  entityUrn,
  changeType: 'UPSERT',
  aspectName,
  aspect: { contentType: 'application/json', value: JSON.stringify(value) },
  ...(systemMetadata && { systemMetadata }),
});
const profile = (urn: string, i: number) =>
  proposal(
    'dataset',
    urn,
    'datasetProfile',
    {
      timestampMillis: T0 + i * DAY,
      eventGranularity: { unit: 'DAY', multiple: 1 },
      partitionSpec: { type: 'PARTITION', partition: `dt=2026-01-${String(i + 1).padStart(2, '0')}` },
      messageId: `${urn}#${i}`,
      rowCount: 1_000 * (i + 1),
      columnCount: 2,
      sizeInBytes: 4_096 * (i + 1),
      fieldProfiles: [
        {
          fieldPath: 'id',
          uniqueCount: 1_000 * (i + 1),
          uniqueProportion: 1,
          nullCount: 0,
          nullProportion: 0,
          min: '1',
          max: String(1_000 * (i + 1)),
          mean: '500.5',
          median: '500',
          stdev: '288.7',
          sampleValues: ['1', '2'],
        },
        { fieldPath: 'note', nullCount: i, nullProportion: i / 1_000, sampleValues: [] },
      ],
    },
    { runId: `profiling-${i}`, lastObserved: T0 + i * DAY + 1 },
  );
const operation = (urn: string, i: number) =>
  proposal('dataset', urn, 'operation', {
    timestampMillis: T0 + i * 3_600_000,
    lastUpdatedTimestamp: T0 + i * 3_600_000 - 5,
    actor: 'urn:li:corpuser:etl',
    operationType: ['INSERT', 'UPDATE', 'CUSTOM'][i % 3],
    ...(i % 3 === 2 && { customOperationType: 'MERGE' }),
    sourceType: 'DATA_PROCESS',
    numAffectedRows: 10 * i,
    affectedDatasets: [urn],
    partition: `dt=${i}`,
    customProperties: { job: 'nightly', attempt: String(i) },
  });
const TIMESERIES = [
  // Entities of their own, so GraphQL's dataset(urn) answers them.
  datasetProperties('db.orders', 'profiled and operated on'),
  datasetProperties('db.customers', 'profiled'),
  ...PROFILED.flatMap((urn, n) => Array.from({ length: 5 + n }, (_, i) => profile(urn, i))),
  ...OPERATED.flatMap((urn) => Array.from({ length: 6 }, (_, i) => operation(urn, i))),
  ...[1, 2, 3].map((i) =>
    proposal('dashboard', DASHBOARD, 'dashboardUsageStatistics', { timestampMillis: T0 + i * DAY, viewsCount: 10 * i, executionsCount: i }),
  ),
];
const LARGE_COUNT = 12_000;
const TIMESERIES_QUERY = `query ($urn: String!) { dataset(urn: $urn) {
  datasetProfiles(limit: 20) { timestampMillis rowCount columnCount sizeInBytes partitionSpec { type partition }
    fieldProfiles { fieldPath uniqueCount uniqueProportion nullCount nullProportion min max mean median stdev sampleValues } }
  operations(limit: 20) { timestampMillis lastUpdatedTimestamp actor operationType customOperationType sourceType numAffectedRows affectedDatasets partition customProperties { key value } }
} }`;

/** What a server answers about the time series: GraphQL per dataset, Rest.li values per entity and aspect, the indices. */
async function timeseriesAnswers(api: ApiClient) {
  const graphql: Record<string, unknown> = {};
  for (const urn of PROFILED) graphql[urn] = (await api.graphql(TIMESERIES_QUERY, { urn })).body;
  const values = async (urn: string, entity: string, aspect: string) => {
    const { status, body } = await api.post('/aspects?action=getTimeseriesAspectValues', { urn, entity, aspect, limit: 20_000 });
    expect(status).toBe(200);
    return body.value;
  };
  const restli = [
    ...(await Promise.all(PROFILED.map((urn) => values(urn, 'dataset', 'datasetProfile')))),
    ...(await Promise.all(OPERATED.map((urn) => values(urn, 'dataset', 'operation')))),
    await values(HIVE, 'dataset', 'datasetUsageStatistics'),
    await values(DASHBOARD, 'dashboard', 'dashboardUsageStatistics'),
    await values(LARGE, 'dataset', 'datasetProfile'),
  ];
  const sizes = await api.operation('getIndexSizes', {});
  expect(sizes.status).toBe(200);
  const indices = (sizes.body.value.indexSizes as { indexName: string }[]).map((s) => s.indexName).sort();
  return { graphql, restli, indices };
}

/** The web UI's usage events (@mds/analytics, analytics.db), as its datahub plugin posts them. */
const USAGE_EVENTS = [
  { type: 'PageViewEvent', path: '/', browserId: 'before-the-move' },
  { type: 'SearchEvent', query: 'sample', total: 3, browserId: 'before-the-move' },
  { type: 'EntityViewEvent', entityType: 'DATASET', entityUrn: HIVE, browserId: 'before-the-move' },
];

const databases = testDatabases();
const secrets = sharedSecrets();
let DATA_DIR: string;
let url: string;
let editorToken: string;
let embeddedAnswers: unknown;
let embeddedTimeseries: Awaited<ReturnType<typeof timeseriesAnswers>>;
let migration: Awaited<ReturnType<typeof runCli>>;
let replica: ChildServer;

beforeAll(async () => {
  DATA_DIR = freshDataDir('embedded');
  const env = { DATA_DIR, NODE_ENV: 'test', ...secrets };
  expect((await runCli(['ingest', fileURLToPath(BOOTSTRAP)], env)).code).toBe(0);
  const domains = await compose(loadConfig(env));
  try {
    const root = { urn: ROOT_ACTOR_URN, privileges: ALL_PRIVILEGES };
    await domains.tags.service.create({ id: 'migrated', name: 'Migrated', description: 'made before the move' }, root);
    await domains.auth.service.roles.assign('urn:li:dataHubRole:Editor', ['urn:li:corpuser:eddie']);
    editorToken = (
      await domains.auth.service.tokens.create({ actorUrn: 'urn:li:corpuser:eddie', duration: 'ONE_DAY', name: 'before the move' })
    ).accessToken;
  } finally {
    for (const module of [...domains.modules].reverse()) await module.close?.();
  }
  // What the embedded server answers, to compare the replica with.
  const embedded = await spawnLive(env);
  try {
    const ingested = await clientOf(embedded).ingest(TIMESERIES);
    expect([ingested.status, ingested.body]).toEqual([200, { value: 'success' }]);
    await ingestRange(clientOf(embedded), 0, LARGE_COUNT);
    for (const event of USAGE_EVENTS) expect((await clientOf(embedded).post('/openapi/v1/tracking/track', event)).status).toBe(200);
    embeddedAnswers = (await clientOf(embedded).graphql(ANSWERS)).body;
    embeddedTimeseries = await timeseriesAnswers(clientOf(embedded));
  } finally {
    await embedded.stop();
  }

  url = await databases.create();
  migration = await runCli(['migrate-to-postgres', '--from', DATA_DIR], {
    DATABASE_URL: url,
    DATA_DIR: freshDataDir('migrate-cli'),
    NODE_ENV: 'test',
    ...secrets,
  });
  replica = await spawnReplica(url, secrets);
});
afterAll(async () => {
  await replica?.stop();
  await databases.dropAll();
});

describe('mds migrate-to-postgres', () => {
  it('copies every table, checks the counts, and says what to start the replicas with', () => {
    expect([migration.code, migration.stderr]).toEqual([
      0,
      expect.stringMatching(
        /metadata_aspect_v2: \d+ rows[\s\S]*access_tokens: 1 rows[\s\S]*usage_events: 3 rows[\s\S]*search index: \d+ entities/,
      ),
    ]);
    expect(migration.stdout).toMatch(/every table's row count matches/);
    expect(migration.stdout).toMatch(/DATAHUB_TOKEN_SERVICE_SIGNING_KEY and DATAHUB_TOKEN_SERVICE_SALT/);
  });

  it('a replica on the copy answers as the embedded server did: entities, tags, search, facets, lineage', async () => {
    const answers = (await clientOf(replica).graphql(ANSWERS)).body;
    expect((answers as { errors?: unknown }).errors).toBeUndefined();
    expect(answers).toEqual(embeddedAnswers);
  });

  it('keeps the tokens and roles: the Editor’s token works on the replica, with its role', async () => {
    const api = clientOf(replica, editorToken);
    expect((await api.graphql(ME)).body.data.me).toEqual({
      corpUser: { urn: 'urn:li:corpuser:eddie' },
      platformPrivileges: { createTags: true },
    });
    expect((await api.graphql(CREATE_TAG, { i: { id: 'after-the-move', name: 'After' } })).body.data).toEqual({
      createTag: 'urn:li:tag:after-the-move',
    });
    // The copied database is no first start: no replica prints a root token for it.
    expect(replica.stderr()).not.toMatch(/root access token/);
  });

  it('keeps the web UI’s usage events in their order, and the replica adds new ones after them', async () => {
    expect(
      (await clientOf(replica).post('/openapi/v1/tracking/track', { type: 'PageViewEvent', path: '/after', browserId: 'b' })).status,
    ).toBe(200);
    const db = openPostgresDatabase({ url, poolSize: 1 });
    try {
      const rows = await db.all<{ type: string }>('SELECT type FROM usage_events ORDER BY id');
      expect(rows.map((r) => r.type)).toEqual([...USAGE_EVENTS.map((e) => e.type), 'PageViewEvent']);
    } finally {
      await db.close();
    }
  });

  it('refuses a database that already holds data, and a run without DATABASE_URL', async () => {
    const again = await migrate(DATA_DIR, url);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('already holds entities or tokens')]);
    const nowhere = await runCli(['migrate-to-postgres', '--from', DATA_DIR], { DATA_DIR: freshDataDir('migrate-cli'), NODE_ENV: 'test' });
    expect([nowhere.code, nowhere.stderr]).toEqual([1, expect.stringContaining('set DATABASE_URL')]);
  });
});

const migrate = (from: string, databaseUrl: string, env: Record<string, string> = {}) =>
  runCli(['migrate-to-postgres', '--from', from], {
    DATABASE_URL: databaseUrl,
    DATA_DIR: freshDataDir('migrate-cli'),
    NODE_ENV: 'test',
    ...secrets,
    ...env,
  });
const PROFILE_INDEX = 'dataset_datasetprofileaspect_v1';
const PROFILES_COPIED = 5 + 6 + 7 + BOOTSTRAP_PROFILES + LARGE_COUNT;
/** Every document of timeseries.db: the profiles, 12 operations, 3 dashboard usages, HIVE's usage statistics. */
const DOCUMENTS = PROFILES_COPIED + 12 + 3 + 1;
const INDICES = [
  'dashboard_dashboardusagestatisticsaspect_v1',
  'dataset_datasetprofileaspect_v1',
  'dataset_datasetusagestatisticsaspect_v1',
  'dataset_operationaspect_v1',
];

describe('mds migrate-to-postgres: time series', () => {
  it('copies every index of timeseries.db, index by index, checks each count, and says what is not copied', () => {
    expect(migration.stderr).toContain(`time series ${PROFILE_INDEX}: ${PROFILES_COPIED} documents\n`);
    expect(migration.stderr).toContain('time series dataset_operationaspect_v1: 12 documents\n');
    expect(migration.stderr).toContain('time series dashboard_dashboardusagestatisticsaspect_v1: 3 documents\n');
    expect(migration.stderr).toContain('time series dataset_datasetusagestatisticsaspect_v1: 1 documents\n');
    expect(migration.stdout).toContain(
      `Time series: ${DOCUMENTS} documents in ${INDICES.length} indices copied into PostgreSQL, where the replicas share them; every index's document count matches. ` +
        'Truncation tasks are not copied',
    );
    expect(migration.stdout).not.toMatch(/Elasticsearch/);
  });

  it('a replica on the copy answers the same profiles, operations and usage, field by field, and lists the same indices', async () => {
    const answers = await timeseriesAnswers(clientOf(replica));
    // Not vacuous: the embedded server answered every point.
    const embeddedProfiles = PROFILED.map(
      (urn) =>
        (embeddedTimeseries.graphql[urn] as { data: { dataset: { datasetProfiles: unknown[] } } }).data.dataset.datasetProfiles.length,
    );
    expect(embeddedProfiles).toEqual([5 + BOOTSTRAP_PROFILES, 6, 7]);
    expect(embeddedTimeseries.restli.map((answer) => answer.values.length)).toEqual([
      5 + BOOTSTRAP_PROFILES,
      6,
      7,
      6,
      6,
      1,
      3,
      LARGE_COUNT,
    ]);
    expect(embeddedTimeseries.indices).toEqual(INDICES);
    for (const urn of PROFILED) expect((answers.graphql[urn] as { errors?: unknown }).errors).toBeUndefined();
    expect(answers).toEqual(embeddedTimeseries);
  });

  it('refuses a database holding time series only, as one holding entities', async () => {
    const target = await databases.create();
    const db = openPostgresDatabase({ url: target, poolSize: 1 });
    try {
      const timeseries = await createTimeseries({
        dataDir: freshDataDir('seed'),
        config: { backend: 'postgres', indexPrefix: '' },
        database: db,
      });
      await timeseries.service.seed({ days: 1, docsPerDay: 1 });
      await timeseries.module.close?.();
    } finally {
      await db.close();
    }
    const refused = await migrate(DATA_DIR, target);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      expect.stringMatching(/already holds time series \(\w+aspect_v1\): migrate-to-postgres fills an empty database only/),
    ]);
  });

  it('with a cluster configured, copies no time series and says what became of those in timeseries.db', async () => {
    const target = await databases.create();
    const run = await migrate(DATA_DIR, target, { ELASTICSEARCH_URL: 'http://127.0.0.1:9' });
    const said =
      'not copied: the replicas keep time series in the cluster at http://127.0.0.1:9 (ELASTICSEARCH_URL or ELASTICSEARCH_HOST is set), which this command does not write to. ' +
      `${join(DATA_DIR, 'timeseries.db')} (${DOCUMENTS} documents in ${INDICES.length} indices) is left as it is.`;
    expect([run.code, run.stderr, run.stdout]).toEqual([
      0,
      expect.stringContaining(`time series: ${said}`),
      expect.stringContaining(`Time series: ${said}`),
    ]);
    expect(run.stderr).not.toMatch(/time series \w+aspect_v1:/);
    expect(run.stdout).toMatch(/every table's row count matches/);
    const db = openPostgresDatabase({ url: target, poolSize: 1 });
    try {
      expect(await postgresDocumentCounts(db)).toEqual(new Map());
    } finally {
      await db.close();
    }
  });

  it('without timeseries.db, copies the rest and says there were none', async () => {
    const withoutTimeseries = freshDataDir('no-timeseries');
    for (const file of readdirSync(DATA_DIR).filter((name) => !name.startsWith('timeseries.db')))
      copyFileSync(join(DATA_DIR, file), join(withoutTimeseries, file));
    const run = await migrate(withoutTimeseries, await databases.create());
    const said = 'none to copy (the data directory has no timeseries.db).';
    expect([run.code, run.stderr, run.stdout]).toEqual([
      0,
      expect.stringContaining(`time series: ${said}`),
      expect.stringContaining(`Time series: ${said}`),
    ]);
  });
});
