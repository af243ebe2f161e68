import { request } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { apiClient } from './support/api-client';
import { freshDataDir, rootTokenIn, runCli, spawnServer } from './support/child';

// `mds` as operators run it: its own process, configured by the environment. Each test starts processes, so
// each gets a budget that holds on a loaded two-core machine.
vi.setConfig({ testTimeout: 90_000 });
const me = (url: string, token: string) => apiClient(url, `Bearer ${token}`).graphql('{ me { corpUser { urn } } }');

describe('configuration', () => {
  it.each([
    [{ PORT: 'eighty' }, /^mds: Invalid PORT="eighty"/],
    [{ LOG_LEVEL: 'loud' }, /^mds: Invalid LOG_LEVEL="loud"/],
    [{ NODE_ENV: 'production' }, /^mds: DATAHUB_TOKEN_SERVICE_SIGNING_KEY must be set in production/],
    [{ NODE_ENV: 'production', DATAHUB_TOKEN_SERVICE_SIGNING_KEY: 'short', DATAHUB_TOKEN_SERVICE_SALT: 's' }, /too short/],
    [{ DATAHUB_SYSTEM_CLIENT_ID: 'only-the-id' }, /DATAHUB_SYSTEM_CLIENT_SECRET/],
  ])('%j stops the start with one clear line', async (env, message) => {
    const { code, stderr } = await runCli(['serve'], { DATA_DIR: freshDataDir('proc'), PORT: '0', ...env });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });
});

describe('first start and tokens', () => {
  it('prints a working root token on the first development start only, and the CLI mints working tokens', async () => {
    const DATA_DIR = freshDataDir('proc');
    const first = await spawnServer({ DATA_DIR, NODE_ENV: 'development' });
    try {
      expect(first.stderr()).toContain(`${first.url}/api/graphiql`);
      const token = rootTokenIn(first.stderr());
      expect(token).toBeDefined();
      expect((await me(first.url, token!)).body.data.me.corpUser.urn).toBe('urn:li:corpuser:datahub');

      // The CLI works on the same database while the server runs, and prints only the token.
      const created = await runCli(['token', 'create', '--actor', 'urn:li:corpuser:datahub', '--duration', 'ONE_HOUR', '--name', 'cli'], {
        DATA_DIR,
      });
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
      expect((await me(first.url, created.stdout.trim())).status).toBe(200);
    } finally {
      expect(await first.stop()).toBe(0);
    }
    const second = await spawnServer({ DATA_DIR, NODE_ENV: 'development' });
    await second.stop();
    expect(second.stderr()).not.toMatch(/root access token/);
  });

  it('the CLI reports bad input on stderr with exit 1 and usage errors with exit 2', async () => {
    const DATA_DIR = freshDataDir('proc');
    const unknown = await runCli(['token', 'create', '--actor', 'urn:li:corpuser:nobody', '--name', 'x'], { DATA_DIR });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/urn:li:corpuser:nobody/);
    expect(unknown.stdout).toBe('');
    expect((await runCli(['token', 'create', '--name', 'x'], { DATA_DIR })).code).toBe(2);
    expect(
      (await runCli(['token', 'create', '--actor', 'urn:li:corpuser:datahub', '--name', 'x', '--duration', 'FOREVER'], { DATA_DIR })).code,
    ).toBe(2);
  });
});

describe('shutdown', () => {
  it('SIGTERM lets an in-flight request finish, then exits 0', async () => {
    const DATA_DIR = freshDataDir('proc');
    const token = (
      await runCli(['token', 'create', '--actor', 'urn:li:corpuser:datahub', '--name', 'shutdown'], { DATA_DIR })
    ).stdout.trim();
    const server = await spawnServer({ DATA_DIR });
    const body = JSON.stringify({ query: 'mutation { createTag(input: { id: "in-flight", name: "in flight" }) }' });
    // Send the headers and half the body, signal, then finish the body: the request must still be served.
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${server.url}/api/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}` },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (c) => (text += c)).on('end', () => resolve({ status: res.statusCode!, text }));
      });
      req.on('error', reject);
      req.write(body.slice(0, 20));
      setTimeout(() => {
        void server.stop();
        setTimeout(() => req.end(body.slice(20)), 300);
      }, 200);
    });
    expect(await answer).toEqual({ status: 200, text: '{"data":{"createTag":"urn:li:tag:in-flight"}}' });
    expect(await server.exited).toBe(0);

    // The acknowledged write is there after a restart.
    const again = await spawnServer({ DATA_DIR });
    try {
      const { body } = await apiClient(again.url, `Bearer ${token}`).graphql(
        '{ tag(urn: "urn:li:tag:in-flight") { properties { name } } }',
      );
      expect(body.data.tag.properties.name).toBe('in flight');
    } finally {
      await again.stop();
    }
  });
});
