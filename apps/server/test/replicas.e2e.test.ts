import { testDatabases } from '@mds/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDataDir, rootTokenIn, runCli, type ChildServer } from './support/child';
import {
  aspectPath,
  assignRole,
  clientOf,
  CREATE_TAG,
  datasetProperties,
  ME,
  mint,
  sharedSecrets,
  spawnReplica,
  TAG,
} from './support/replicas';

// Two `mds serve` processes on one PostgreSQL database, as behind a load balancer: whatever one replica writes or
// revokes, the other answers accordingly on its very next request.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const databases = testDatabases();
let url: string;
let secrets: Record<string, string>;
let a: ChildServer;
let b: ChildServer;

beforeAll(async () => {
  url = await databases.create();
  secrets = sharedSecrets();
  // Started at the same moment on an empty database: both migrate it (one after the other, under the advisory lock).
  [a, b] = await Promise.all([spawnReplica(url, secrets), spawnReplica(url, secrets)]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await databases.dropAll();
});

describe('two replicas started together on an empty database', () => {
  it('both serve, exactly one prints the root token, and it works on both', async () => {
    const printed = [a, b].map((replica) => rootTokenIn(replica.stderr())).filter((token) => token !== undefined);
    expect(printed).toHaveLength(1);
    for (const replica of [a, b]) {
      const { status, body } = await clientOf(replica, printed[0]).graphql(ME);
      expect(status).toBe(200);
      expect(body.data.me.corpUser.urn).toBe('urn:li:corpuser:datahub');
    }
  });

  it('neither warns that time-series data stays local: it is in the database too', () => {
    for (const replica of [a, b]) expect(replica.stdout()).not.toMatch(/time-series|timeseries/);
  });
});

describe('what one replica writes, the other reads', () => {
  it('a token minted on A works on B', async () => {
    await assignRole(clientOf(a), 'urn:li:corpuser:minted', 'urn:li:dataHubRole:Reader');
    const { token } = await mint(clientOf(a), 'urn:li:corpuser:minted');
    expect((await clientOf(b, token).graphql(ME)).body.data.me.corpUser.urn).toBe('urn:li:corpuser:minted');
  });

  it('the CLI works on the same database: a token it mints works on both replicas', async () => {
    const created = await runCli(['token', 'create', '--actor', 'urn:li:corpuser:datahub', '--name', 'cli', '--duration', 'ONE_HOUR'], {
      DATABASE_URL: url,
      DATA_DIR: freshDataDir('replica-cli'),
      ...secrets,
    });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    for (const replica of [a, b])
      expect((await clientOf(replica, created.stdout.trim()).graphql(ME)).body.data.me.corpUser.urn).toBe('urn:li:corpuser:datahub');
  });

  it('a tag created on A is read on B', async () => {
    const created = await clientOf(a).graphql(CREATE_TAG, { i: { id: 'shared', name: 'Shared', description: 'made on A' } });
    expect(created.body).toEqual({ data: { createTag: 'urn:li:tag:shared' } });
    const read = await clientOf(b).graphql(TAG, { u: 'urn:li:tag:shared' });
    expect(read.body.data.tag).toEqual({ urn: 'urn:li:tag:shared', properties: { name: 'Shared', description: 'made on A' } });
  });

  it('an aspect ingested on A reads back on B', async () => {
    const ingested = await clientOf(a).post('/aspects?action=ingestProposal', {
      proposal: datasetProperties('db.orders', 'ingested on A'),
    });
    expect(ingested.status).toBe(200);
    const read = await clientOf(b).get(aspectPath('db.orders'));
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toContain('ingested on A');
  });

  it('of 20 concurrent createTag requests with one id, spread over A and B, exactly one wins', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 20 }, (_, i) => clientOf(i % 2 ? a : b).graphql(CREATE_TAG, { i: { id: 'raced', name: `attempt ${i}` } })),
    );
    expect(attempts.map((attempt) => attempt.status)).toEqual(Array(20).fill(200));
    expect(attempts.filter((attempt) => attempt.body.data?.createTag === 'urn:li:tag:raced')).toHaveLength(1);
    expect(attempts.filter((attempt) => attempt.body.errors?.[0]?.message === 'This Tag already exists!')).toHaveLength(19);
  });
});

describe('security facts are never stale on the other replica', () => {
  it('a token revoked on A is refused by B on the very next request', async () => {
    await assignRole(clientOf(a), 'urn:li:corpuser:revoked', 'urn:li:dataHubRole:Reader');
    const { token, id } = await mint(clientOf(a), 'urn:li:corpuser:revoked');
    expect((await clientOf(b, token).graphql(ME)).status).toBe(200); // known to B before the revocation
    const revoked = await clientOf(a).graphql('mutation($id: String!) { revokeAccessToken(tokenId: $id) }', { id });
    expect(revoked.body.data.revokeAccessToken).toBe(true);
    const refused = await clientOf(b, token).graphql(ME);
    expect(refused.status).toBe(401);
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 401 });
  });

  it('a role change on A is applied by B on the very next request', async () => {
    await assignRole(clientOf(a), 'urn:li:corpuser:promoted', 'urn:li:dataHubRole:Reader');
    const { token } = await mint(clientOf(a), 'urn:li:corpuser:promoted');
    const asReader = await clientOf(b, token).graphql(CREATE_TAG, { i: { id: 'by-reader', name: 'no' } });
    expect(asReader.body.errors[0].extensions).toMatchObject({ code: 403 });
    await assignRole(clientOf(a), 'urn:li:corpuser:promoted', 'urn:li:dataHubRole:Editor');
    const asEditor = await clientOf(b, token).graphql(CREATE_TAG, { i: { id: 'by-editor', name: 'yes' } });
    expect(asEditor.body).toEqual({ data: { createTag: 'urn:li:tag:by-editor' } });
    await assignRole(clientOf(a), 'urn:li:corpuser:promoted', 'urn:li:dataHubRole:Reader');
    expect((await clientOf(b, token).graphql(ME)).body.data.me.platformPrivileges.createTags).toBe(false);
  });
});

describe('a rolling restart', () => {
  it('a replica stopped with SIGTERM exits 0, and the other serves on', async () => {
    expect(await a.stop()).toBe(0);
    expect((await clientOf(b).graphql(TAG, { u: 'urn:li:tag:shared' })).body.data.tag.urn).toBe('urn:li:tag:shared');
  });
});
