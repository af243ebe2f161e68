import { ROOT_ACTOR_URN } from '@mds/auth';
import { testDatabases } from '@mds/db/testing';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compose } from '../src/compose';
import { loadConfig } from '../src/config';
import { freshDataDir, runCli, type ChildServer } from './support/child';
import { BOOTSTRAP } from './support/datahub-files';
import { spawnLive } from './support/live';
import { clientOf, CREATE_TAG, ME, sharedSecrets, spawnReplica } from './support/replicas';

// `mds migrate-to-postgres --from DATA_DIR`: an embedded installation (DataHub's bootstrap file ingested with
// `mds ingest`, a tag, an Editor with a token) copied into an empty PostgreSQL database, then served by a replica
// that answers as the embedded server did.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const HIVE = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const ANSWERS = `{
  dataset(urn: "${HIVE}") { urn properties { description } schemaMetadata { fields { fieldPath } } tags { tags { tag { urn } } } ownership { owners { owner { ... on CorpUser { urn } } } } }
  tag(urn: "urn:li:tag:migrated") { urn properties { name description } }
  sample: search(input: { type: DATASET, query: "sample", count: 10 }) { total }
  searchAcrossEntities(input: { types: [DATASET, TAG], query: "*", count: 100 }) { total searchResults { entity { urn } } facets { field aggregations { value count } } }
  relationships: dataset(urn: "${HIVE}") { lineage(input: { direction: UPSTREAM }) { total relationships { entity { urn } } } }
}`;

const databases = testDatabases();
const secrets = sharedSecrets();
let DATA_DIR: string;
let url: string;
let editorToken: string;
let embeddedAnswers: unknown;
let migration: Awaited<ReturnType<typeof runCli>>;
let replica: ChildServer;

beforeAll(async () => {
  DATA_DIR = freshDataDir('embedded');
  const env = { DATA_DIR, NODE_ENV: 'test', ...secrets };
  expect((await runCli(['ingest', fileURLToPath(BOOTSTRAP)], env)).code).toBe(0);
  const domains = await compose(loadConfig(env));
  try {
    await domains.tags.create({ id: 'migrated', name: 'Migrated', description: 'made before the move' }, ROOT_ACTOR_URN);
    await domains.auth.roles.assign('urn:li:dataHubRole:Editor', ['urn:li:corpuser:eddie']);
    editorToken = (await domains.auth.tokens.create({ actorUrn: 'urn:li:corpuser:eddie', duration: 'ONE_DAY', name: 'before the move' })).accessToken;
  } finally {
    for (const module of [...domains.modules].reverse()) await module.close?.();
  }
  // What the embedded server answers, to compare the replica with.
  const embedded = await spawnLive(env);
  try {
    embeddedAnswers = (await clientOf(embedded).graphql(ANSWERS)).body;
  } finally {
    await embedded.stop();
  }

  url = await databases.create();
  migration = await runCli(['migrate-to-postgres', '--from', DATA_DIR], { DATABASE_URL: url, DATA_DIR: freshDataDir('migrate-cli'), NODE_ENV: 'test', ...secrets });
  replica = await spawnReplica(url, secrets);
});
afterAll(async () => {
  await replica?.stop();
  await databases.dropAll();
});

describe('mds migrate-to-postgres', () => {
  it('copies every table, checks the counts, and says what to start the replicas with', () => {
    expect([migration.code, migration.stderr]).toEqual([0, expect.stringMatching(/metadata_aspect_v2: \d+ rows[\s\S]*access_tokens: 1 rows[\s\S]*search index: \d+ entities/)]);
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
    expect((await api.graphql(ME)).body.data.me).toEqual({ corpUser: { urn: 'urn:li:corpuser:eddie' }, platformPrivileges: { createTags: true } });
    expect((await api.graphql(CREATE_TAG, { i: { id: 'after-the-move', name: 'After' } })).body.data).toEqual({ createTag: 'urn:li:tag:after-the-move' });
    // The copied database is no first start: no replica prints a root token for it.
    expect(replica.stderr()).not.toMatch(/root access token/);
  });

  it('refuses a database that already holds data, and a run without DATABASE_URL', async () => {
    const again = await runCli(['migrate-to-postgres', '--from', DATA_DIR], { DATABASE_URL: url, DATA_DIR: freshDataDir('migrate-cli'), NODE_ENV: 'test', ...secrets });
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('already holds entities or tokens')]);
    const nowhere = await runCli(['migrate-to-postgres', '--from', DATA_DIR], { DATA_DIR: freshDataDir('migrate-cli'), NODE_ENV: 'test' });
    expect([nowhere.code, nowhere.stderr]).toEqual([1, expect.stringContaining('set DATABASE_URL')]);
  });
});
