import { openPostgresDatabase, type SqlDatabase } from '@mds/db';
import { testDatabases } from '@mds/db/testing';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDataDir, runCli, type ChildServer } from './support/child';
import { clientOf, sharedSecrets, spawnReplica } from './support/replicas';

// A PostgreSQL database as a DataHub deployment leaves it: DataHub's own setup script (fixtures/datahub-postgres, from
// DataHub's commit c731e725ff42) creates `metadata_aspect_v2`, then rows are written as DataHub's entity service writes
// them (version 0 the latest, the history numbered from 1, `systemmetadata` JSON, `createdon` a timestamp, `createdby`).
// mds opens it as it is, `mds reindex` builds search and relationships from it, and every face reads it.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,warehouse.orders,PROD)';
const RAW = 'urn:li:dataset:(urn:li:dataPlatform:hive,warehouse.raw_orders,PROD)';
const PII = 'urn:li:tag:pii';
const JDOE = 'urn:li:corpuser:jdoe';
const INGESTION = 'urn:li:corpuser:datahub';
const system = (runId: string, lastObserved: number, version: string) =>
  JSON.stringify({ lastObserved, runId, lastRunId: 'no-run-id-provided', version });

/** The rows: urn, aspect, version, metadata, systemmetadata, createdon (as DataHub's JDBC writes a timestamp), createdby. */
const ROWS: [string, string, number, object, string | null, string, string][] = [
  [
    ORDERS,
    'datasetKey',
    0,
    { platform: 'urn:li:dataPlatform:hive', name: 'warehouse.orders', origin: 'PROD' },
    null,
    '2025-09-01 08:00:00',
    INGESTION,
  ],
  [
    ORDERS,
    'datasetProperties',
    0,
    { name: 'orders', description: 'Orders, one row per order line', customProperties: { owner_team: 'sales' }, tags: [] },
    system('hive-2025_09_02', 1756801800250, '2'),
    '2025-09-02 08:30:00.250',
    INGESTION,
  ],
  [
    ORDERS,
    'datasetProperties',
    1,
    { description: 'Orders', customProperties: {}, tags: [] },
    system('hive-2025_09_01', 1756713600000, '1'),
    '2025-09-01 08:00:00',
    INGESTION,
  ],
  [
    ORDERS,
    'ownership',
    0,
    { owners: [{ owner: JDOE, type: 'DATAOWNER' }], ownerTypes: {}, lastModified: { time: 0, actor: 'urn:li:corpuser:unknown' } },
    system('hive-2025_09_01', 1756713600000, '1'),
    '2025-09-01 08:00:00',
    INGESTION,
  ],
  [
    ORDERS,
    'upstreamLineage',
    0,
    { upstreams: [{ auditStamp: { time: 0, actor: 'urn:li:corpuser:unknown' }, dataset: RAW, type: 'TRANSFORMED' }] },
    system('hive-2025_09_01', 1756713600000, '1'),
    '2025-09-01 08:00:00',
    INGESTION,
  ],
  [
    ORDERS,
    'globalTags',
    0,
    { tags: [{ tag: PII }] },
    system('hive-2025_09_01', 1756713600000, '1'),
    '2025-09-01 08:00:00',
    'urn:li:corpuser:jdoe',
  ],
  [
    RAW,
    'datasetKey',
    0,
    { platform: 'urn:li:dataPlatform:hive', name: 'warehouse.raw_orders', origin: 'PROD' },
    null,
    '2025-09-01 08:00:00',
    INGESTION,
  ],
  [RAW, 'status', 0, { removed: false }, system('hive-2025_09_01', 1756713600000, '1'), '2025-09-01 08:00:00', INGESTION],
  [PII, 'tagKey', 0, { name: 'pii' }, null, '2025-08-30 12:00:00', JDOE],
  [
    PII,
    'tagProperties',
    0,
    { name: 'PII', description: 'Personal data' },
    system('no-run-id-provided', 1756555200000, '1'),
    '2025-08-30 12:00:00',
    JDOE,
  ],
  [JDOE, 'corpUserKey', 0, { username: 'jdoe' }, null, '2025-08-30 12:00:00', INGESTION],
  [JDOE, 'corpUserInfo', 0, { active: true, displayName: 'Jane Doe', email: 'jdoe@example.com' }, '{}', '2025-08-30 12:00:00', INGESTION],
];

/** What a table is to PostgreSQL: its columns (name, type, length, nullability, collation), constraints and indexes. */
async function layout(db: SqlDatabase) {
  return {
    columns: await db.all(
      `SELECT column_name, data_type, character_maximum_length, is_nullable, collation_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'metadata_aspect_v2' ORDER BY ordinal_position`,
    ),
    constraints: await db.all(
      `SELECT conname, contype FROM pg_constraint WHERE conrelid = 'metadata_aspect_v2'::regclass ORDER BY conname`,
    ),
    indexes: await db.all(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'metadata_aspect_v2' ORDER BY indexname`),
  };
}

const databases = testDatabases();
const secrets = sharedSecrets();
let url: string;
let db: SqlDatabase;
let datahubLayout: Awaited<ReturnType<typeof layout>>;
let reindex: Awaited<ReturnType<typeof runCli>>;
let server: ChildServer;

beforeAll(async () => {
  url = await databases.create();
  db = openPostgresDatabase({ url, poolSize: 1 });
  const setup = readFileSync(new URL('fixtures/datahub-postgres/init.sql', import.meta.url), 'utf8');
  for (const statement of setup.split(/;\s*\n/).filter((s) => s.replace(/--.*$/gm, '').trim())) await db.run(statement);
  datahubLayout = await layout(db);
  for (const [urn, aspect, version, metadata, systemmetadata, createdon, createdby] of ROWS) {
    await db.run(
      'INSERT INTO metadata_aspect_v2 (urn, aspect, version, metadata, systemmetadata, createdon, createdby) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [urn, aspect, version, JSON.stringify(metadata), systemmetadata, createdon, createdby],
    );
  }
  reindex = await runCli(['reindex'], { DATABASE_URL: url, DATA_DIR: freshDataDir('datahub-reindex'), NODE_ENV: 'test', ...secrets });
  server = await spawnReplica(url, secrets);
});
afterAll(async () => {
  await server?.stop();
  await db?.close();
  await databases.dropAll();
});

const enc = encodeURIComponent;

describe("a PostgreSQL database in DataHub's own layout", () => {
  it('is opened as it is, and mds reindex builds search and relationships from its rows', async () => {
    expect([reindex.code, reindex.stderr]).toEqual([0, '']);
    // The eight entities: the two datasets, the tag, jdoe and the datahub user DataHub's setup script writes, and
    // DataHub's three default policies for all users (written at the first start, as DataHub's boot step would).
    expect(reindex.stdout).toMatch(/^Reindexed 8 entities in /);
    expect(await layout(db)).toEqual(datahubLayout);
    expect(datahubLayout.columns).toContainEqual(
      expect.objectContaining({ column_name: 'createdon', data_type: 'timestamp without time zone' }),
    );
  });

  it('answers Rest.li: every version of an aspect, the entity with its audit stamps, the relationships', async () => {
    const api = clientOf(server);
    const latest = await api.get(`/aspects/${enc(ORDERS)}?aspect=datasetProperties&version=0`);
    expect(latest).toEqual({ status: 200, body: { aspect: { 'com.linkedin.dataset.DatasetProperties': ROWS[1]![3] }, version: 0 } });
    const first = await api.get(`/aspects/${enc(ORDERS)}?aspect=datasetProperties&version=1`);
    expect(first.body).toEqual({ aspect: { 'com.linkedin.dataset.DatasetProperties': ROWS[2]![3] }, version: 1 });

    const entity = await api.get(`/entitiesV2/${enc(ORDERS)}?aspects=List(datasetProperties,ownership)`);
    expect(entity.status).toBe(200);
    expect(entity.body.aspects.datasetProperties).toEqual({
      name: 'datasetProperties',
      type: 'VERSIONED',
      version: 0,
      value: ROWS[1]![3],
      created: { time: Date.UTC(2025, 8, 2, 8, 30, 0, 250), actor: INGESTION },
      systemMetadata: JSON.parse(ROWS[1]![4]!),
    });
    expect(Object.keys(entity.body.aspects).sort()).toEqual(['datasetKey', 'datasetProperties', 'ownership']);

    const outgoing = await api.get(`/relationships?urn=${enc(ORDERS)}&direction=OUTGOING&types=List(OwnedBy,DownstreamOf,TaggedWith)`);
    expect(outgoing.body).toEqual({
      start: 0,
      count: 3,
      total: 3,
      relationships: [
        { type: 'DownstreamOf', entity: RAW },
        { type: 'OwnedBy', entity: JDOE },
        { type: 'TaggedWith', entity: PII },
      ],
    });
    const incoming = await api.get(`/relationships?urn=${enc(RAW)}&direction=INCOMING&types=DownstreamOf`);
    expect(incoming.body.relationships).toEqual([{ type: 'DownstreamOf', entity: ORDERS }]);
  });

  it('answers OpenAPI and GraphQL, search included', async () => {
    const api = clientOf(server);
    const openapi = await api.get(`/openapi/v3/entity/dataset/${enc(ORDERS)}`);
    expect(openapi.status).toBe(200);
    expect(openapi.body.datasetProperties.value).toEqual(ROWS[1]![3]);
    expect(openapi.body.ownership.value.owners).toEqual([{ owner: JDOE, type: 'DATAOWNER' }]);

    const { body } = await api.graphql(`{
      dataset(urn: "${ORDERS}") { properties { name description } ownership { owners { owner { ... on CorpUser { urn } } } } tags { tags { tag { urn } } } }
      tag(urn: "${PII}") { properties { name description } }
      search(input: { type: DATASET, query: "orders", count: 10 }) { total searchResults { entity { urn } } }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data.dataset).toEqual({
      properties: { name: 'orders', description: 'Orders, one row per order line' },
      ownership: { owners: [{ owner: { urn: JDOE } }] },
      tags: { tags: [{ tag: { urn: PII } }] },
    });
    expect(body.data.tag).toEqual({ properties: { name: 'PII', description: 'Personal data' } });
    expect(body.data.search.searchResults.map((r: { entity: { urn: string } }) => r.entity.urn).sort()).toEqual([ORDERS, RAW]);
  });

  it('writes new versions into the same table, as DataHub would: the latest archived, createdon a timestamp', async () => {
    const api = clientOf(server);
    const value = { name: 'orders', description: 'Orders, restated', customProperties: {} };
    const proposal = {
      entityType: 'dataset',
      entityUrn: ORDERS,
      changeType: 'UPSERT',
      aspectName: 'datasetProperties',
      aspect: { contentType: 'application/json', value: JSON.stringify(value) },
    };
    const before = Date.now();
    expect((await api.ingest([proposal])).status).toBe(200);
    const rows = await db.all<{ version: number; metadata: string; createdon: Date; millis: number }>(
      `SELECT version, metadata, createdon, floor(extract(epoch FROM createdon) * 1000)::bigint AS millis
         FROM metadata_aspect_v2 WHERE urn = ? AND aspect = 'datasetProperties' ORDER BY version`,
      [ORDERS],
    );
    expect(rows.map((r) => [r.version, JSON.parse(r.metadata)])).toEqual([
      [0, value],
      [1, ROWS[2]![3]],
      [2, ROWS[1]![3]],
    ]);
    expect(rows[0]!.createdon).toBeInstanceOf(Date);
    expect(rows[0]!.millis).toBeGreaterThanOrEqual(before - 1_000);
    expect(rows[2]!.millis).toBe(Date.UTC(2025, 8, 2, 8, 30, 0, 250));
    const read = await api.get(`/aspects/${enc(ORDERS)}?aspect=datasetProperties&version=2`);
    expect(read.body.aspect['com.linkedin.dataset.DatasetProperties']).toEqual(ROWS[1]![3]);
    expect(await layout(db)).toEqual(datahubLayout);
  });
});
