import type { Actor } from '@mds/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startServer, type RunningServer } from '../src/server';
import { startFrontendProxy } from './support/frontend-proxy';
import { send } from './support/raw-http';

// The origin guard behind DataHub's frontend (issue 32): mds on 127.0.0.1 trusts only 127.0.0.2 (MDS_TRUSTED_PROXIES);
// one stand-in frontend calls it from 127.0.0.2, another from 127.0.0.3. Linux routes all of 127.0.0.0/8 to loopback.
const actor: Actor = { urn: 'urn:li:corpuser:tester', privileges: new Set() };
const query = JSON.stringify({ query: '{ word }' });

async function startHost(env: Record<string, string>): Promise<RunningServer> {
  return startServer(loadConfig({ PORT: '0', ...env }), createLogger('silent'), {
    modules: [{ name: 'test', typeDefs: ['extend type Query { word: String }'], resolvers: { Query: { word: () => 'hello' } } as never }],
    authenticate: async (header) => (header === 'Bearer ok' ? actor : null),
  });
}

/** The browser's GraphQL call, as fetch sends it to `base` with the given Origin and extra headers. */
const graphql = (base: string, origin: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ok', origin, ...headers },
    body: query,
  });

let mds: RunningServer;
let trusted: Awaited<ReturnType<typeof startFrontendProxy>>;
let untrusted: Awaited<ReturnType<typeof startFrontendProxy>>;
beforeAll(async () => {
  mds = await startHost({ MDS_TRUSTED_PROXIES: '127.0.0.2, 10.0.0.0/8' });
  trusted = await startFrontendProxy(mds.url, { localAddress: '127.0.0.2' });
  untrusted = await startFrontendProxy(mds.url, { localAddress: '127.0.0.3' });
});
afterAll(async () => {
  await trusted?.close();
  await untrusted?.close();
  await mds?.close();
});

describe('behind a trusted proxy (MDS_TRUSTED_PROXIES)', () => {
  it("admits the browser's call from the page the proxy serves, as DataHub's frontend forwards it", async () => {
    const res = await graphql(trusted.url, trusted.url);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { word: 'hello' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('still refuses a cross-site call forwarded by it', async () => {
    const res = await graphql(trusted.url, 'https://evil.example');
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe(
      'Cross-origin requests from https://evil.example are not allowed: list the origin in CORS_ORIGINS (behind a proxy: set DATAHUB_BASE_URL or MDS_TRUSTED_PROXIES)',
    );
  });

  it('compares the scheme it forwards: an http page is not the https site', async () => {
    const res = await graphql(trusted.url, trusted.url, { 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(403);
    const https = await graphql(trusted.url, trusted.url.replace('http:', 'https:'), { 'x-forwarded-proto': 'https' });
    expect(https.status).toBe(200);
  });

  it('takes the first host of a chain of proxies', async () => {
    const res = await graphql(trusted.url, 'https://datahub.example', {
      'x-forwarded-host': 'datahub.example, inner:9002',
      'x-forwarded-proto': 'https',
    });
    expect(res.status).toBe(200);
  });
});

describe('from an address not trusted', () => {
  it('refuses the same forwarded call: its X-Forwarded-Host is not believed', async () => {
    const res = await graphql(untrusted.url, untrusted.url);
    expect(res.status).toBe(403);
  });

  it('cannot spoof X-Forwarded-Host to pass a foreign Origin', async () => {
    const res = await send(mds.url, {
      method: 'POST',
      path: '/api/graphql',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer ok',
        origin: 'https://evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      },
      body: query,
    });
    expect(res.status).toBe(403);
  });

  it('still admits its own origin (Host) as before', async () => {
    expect((await graphql(mds.url, mds.url)).status).toBe(200);
  });
});

describe('DATAHUB_BASE_URL', () => {
  let open: RunningServer;
  let proxy: Awaited<ReturnType<typeof startFrontendProxy>>;
  beforeAll(async () => {
    open = await startHost({ DATAHUB_BASE_URL: 'https://datahub.example.com/' });
    proxy = await startFrontendProxy(open.url, { localAddress: '127.0.0.3' });
  });
  afterAll(async () => {
    await proxy?.close();
    await open?.close();
  });

  it('admits a browser on the public URL through any proxy, and nothing else', async () => {
    expect((await graphql(proxy.url, 'https://datahub.example.com')).status).toBe(200);
    expect((await graphql(proxy.url, 'http://datahub.example.com')).status).toBe(403);
    expect((await graphql(proxy.url, 'https://evil.example')).status).toBe(403);
    // Without a trusted proxy list, the forwarded host of the proxy's own page is not believed either.
    expect((await graphql(proxy.url, proxy.url)).status).toBe(403);
  });
});

describe('configuration', () => {
  it.each(['10.0.0.0/33', 'proxy.internal', '10.0.0.1/8/2', '::1/129'])('refuses MDS_TRUSTED_PROXIES=%s naming the variable', (entry) => {
    expect(() => loadConfig({ MDS_TRUSTED_PROXIES: `127.0.0.1, ${entry}` })).toThrow(ConfigError);
    expect(() => loadConfig({ MDS_TRUSTED_PROXIES: entry })).toThrow(/^Invalid MDS_TRUSTED_PROXIES=.*addresses or CIDR blocks/);
  });

  it('reads addresses and CIDR blocks of both families, and DATAHUB_BASE_URL as an origin', () => {
    const config = loadConfig({
      MDS_TRUSTED_PROXIES: '10.0.0.7, 172.16.0.0/12, ::1, fd00::/8',
      DATAHUB_BASE_URL: 'https://datahub.example.com:8443/ui',
    });
    expect(config.trustedProxies).toEqual(['10.0.0.7', '172.16.0.0/12', '::1', 'fd00::/8']);
    expect(config.publicOrigin).toBe('https://datahub.example.com:8443');
    expect(() => loadConfig({ DATAHUB_BASE_URL: 'datahub' })).toThrow(/^Invalid DATAHUB_BASE_URL=/);
  });
});
