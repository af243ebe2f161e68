import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient } from './support/api-client';
import { freshDataDir, runCli, type ChildServer } from './support/child';
import { sleep } from './support/live';
import { aspectPath, clientOf, databaseBehindRelay, datasetProperties, mint, sharedSecrets, spawnReplica, TAG } from './support/replicas';

// A replica whose database goes away answers 503 with a JSON error (never a 500, never a hang), says so on /health,
// and serves again by itself once the database is back, having lost nothing it acknowledged.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

let database: Awaited<ReturnType<typeof databaseBehindRelay>>;
let a: ChildServer;
let b: ChildServer;

beforeAll(async () => {
  database = await databaseBehindRelay();
  // A reaches the database through the relay, with a password in its URL (the test server trusts every local
  // connection, so any password is accepted) to show it masked in the log.
  const relayed = new URL(database.relayed);
  relayed.password = 'not-to-be-logged';
  const secrets = sharedSecrets();
  a = await spawnReplica(relayed.toString(), secrets, { LOG_LEVEL: 'info' });
  // B's DATA_DIR holds an embedded installation's entities.db, which PostgreSQL does not have.
  const embedded = freshDataDir('embedded');
  writeFileSync(join(embedded, 'entities.db'), '');
  b = await spawnReplica(database.url, secrets, { DATA_DIR: embedded });
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.dispose();
});

describe('configuration', () => {
  it.each([
    [{ DATABASE_URL: 'mysql://user:secret@db:3306/mds' }, /^mds: DATABASE_URL must be a postgres:\/\/ URL/],
    [
      { EBEAN_DATASOURCE_URL: 'jdbc:mysql://db:3306/datahub', EBEAN_DATASOURCE_PASSWORD: 'secret' },
      /^mds: EBEAN_DATASOURCE_URL: mysql is not supported/,
    ],
    [{ DATABASE_URL: 'postgres://db/mds', DATABASE_POOL_SIZE: 'lots' }, /^mds: DATABASE_POOL_SIZE must be an integer/],
  ])('%j refuses to start with one clear line, naming no password', async (env, message) => {
    const { code, stderr } = await runCli(['serve'], { DATA_DIR: freshDataDir('replica'), PORT: '0', ...env });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
    expect(stderr).not.toContain('secret');
  });
});

it('a database that cannot be reached at start stops it with one line naming it, password masked', async () => {
  const { code, stderr } = await runCli(['serve'], {
    DATA_DIR: freshDataDir('replica'),
    PORT: '0',
    DATABASE_URL: 'postgres://mds:secret@127.0.0.1:9/mds',
  });
  expect(code).toBe(1);
  expect(stderr.trim().split('\n')).toHaveLength(1);
  expect(stderr).toMatch(/^mds: cannot reach PostgreSQL at postgres:\/\/mds:\*\*\*\*@127\.0\.0\.1:9\/mds: .*ECONNREFUSED/);
});

it('logs which database it uses, the password masked', () => {
  expect(a.stdout()).toMatch(
    /database: PostgreSQL postgres:\/\/postgres:\*\*\*\*@127\.0\.0\.1:\d+\/mds_test_\w+ \(from DATABASE_URL, pool of 10\)/,
  );
  expect(a.stdout() + a.stderr()).not.toContain('not-to-be-logged');
});

it('warns that entities of an embedded installation in DATA_DIR are not served', () => {
  expect(b.stdout()).toMatch(/entities\.db holds the entities of an embedded installation, which this PostgreSQL database does not have/);
  expect(b.stdout()).toMatch(/mds migrate-to-postgres --from \S+ copies them/);
  expect(a.stdout()).not.toMatch(/embedded installation/);
});

describe('the database out of reach', () => {
  it('answers 503 with a JSON error on GraphQL, Rest.li and OpenAPI, reports it on /health, and recovers by itself', async () => {
    const { token } = await mint(clientOf(a), 'urn:li:corpuser:datahub');
    expect(
      (await clientOf(a).post('/aspects?action=ingestProposal', { proposal: datasetProperties('db.kept', 'before the outage') })).status,
    ).toBe(200);
    await database.proxy.cut();
    try {
      const started = performance.now();
      const graphql = await clientOf(a).graphql(TAG, { u: 'urn:li:tag:any' });
      expect(graphql.status).toBe(503);
      expect(graphql.body.errors[0]).toMatchObject({
        message: expect.stringMatching(/database is unavailable/),
        extensions: { code: 503, type: 'SERVICE_UNAVAILABLE' },
      });
      // A bearer token cannot be checked without the database: that too is a 503, not a 401.
      const bearer = await clientOf(a, token).graphql(TAG, { u: 'urn:li:tag:any' });
      expect(bearer.status).toBe(503);
      expect(bearer.body.errors[0].extensions).toMatchObject({ code: 503 });
      const restli = await clientOf(a).get(aspectPath('db.kept'));
      expect(restli).toMatchObject({ status: 503, body: { status: 503, message: expect.stringMatching(/database is unavailable/) } });
      const written = await clientOf(a).post('/aspects?action=ingestProposal', {
        proposal: datasetProperties('db.refused', 'during the outage'),
      });
      expect(written.status).toBe(503);
      const openapi = await clientOf(a).get(
        `/openapi/v3/entity/dataset/${encodeURIComponent('urn:li:dataset:(urn:li:dataPlatform:postgres,db.kept,PROD)')}`,
      );
      expect(openapi).toMatchObject({ status: 503, body: { error: expect.stringMatching(/database is unavailable/) } });
      expect(performance.now() - started).toBeLessThan(10_000);
      const health = await apiClient(a.url, null).get('/health');
      expect(health).toMatchObject({
        status: 503,
        body: { status: 'unavailable', reason: expect.stringMatching(/database: PostgreSQL unreachable/) },
      });
      // B, on its own connections, serves on.
      expect((await clientOf(b).get(aspectPath('db.kept'))).status).toBe(200);
    } finally {
      await database.proxy.restore();
    }
    await sleep(1_100); // /health reuses an answer for a second
    expect((await apiClient(a.url, null).get('/health')).status).toBe(200);
    expect((await clientOf(a, token).get(aspectPath('db.kept'))).status).toBe(200);
    expect((await clientOf(b).get(aspectPath('db.refused'))).status).toBe(404); // refused during the outage: not written
    expect(a.stdout()).not.toMatch(/"level":50/); // nothing logged as an error: no request failed as a bug
  });
});
