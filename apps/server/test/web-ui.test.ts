import type { Actor } from '@mds/schema';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startServer, type RunningServer } from '../src/server';
import { send } from './support/raw-http';

// MDS_WEB_UI_DIR (issue 32): a folder laid out as DataHub's web UI build is (index.html, hashed files in assets/,
// manifest.json, node_modules/), written by the test, served beside the API.
const actor: Actor = { urn: 'urn:li:corpuser:tester', privileges: new Set() };
const INDEX =
  '<!DOCTYPE html><html><head><script type="module" src="/assets/index-MsGu2Bap.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("ui");';

let dir: string;
let outside: string;
let mds: RunningServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mds-web-ui-'));
  outside = mkdtempSync(join(tmpdir(), 'mds-web-ui-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'not the UI');
  mkdirSync(join(dir, 'assets/icons'), { recursive: true });
  mkdirSync(join(dir, 'node_modules/monaco-editor/min/vs'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets/index-MsGu2Bap.js'), SCRIPT);
  writeFileSync(join(dir, 'assets/Mulish-Bold-DpJnP0uj.ttf'), Buffer.from([0, 1, 0, 0]));
  writeFileSync(join(dir, 'assets/icons/favicon.ico'), Buffer.from([0, 0, 1, 0]));
  writeFileSync(join(dir, 'node_modules/monaco-editor/min/vs/loader.js'), 'var loader;');
  writeFileSync(join(dir, 'manifest.json'), '{"name":"DataHub"}');
  symlinkSync(outside, join(dir, 'assets/escape'));
  mds = await startServer(loadConfig({ PORT: '0', MDS_WEB_UI_DIR: dir }), createLogger('silent'), {
    modules: [{ name: 'test', typeDefs: ['extend type Query { word: String }'], resolvers: { Query: { word: () => 'hello' } } as never }],
    authenticate: async (header) => (header === 'Bearer ok' ? actor : null),
  });
});
afterAll(async () => {
  await mds?.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) => fetch(mds.url + path, { headers });

describe('the UI page', () => {
  it.each(['/', '/dataset/urn:li:dataset:(urn:li:dataPlatform:hive,db.table,PROD)/Schema', '/search?query=x', '/login'])(
    'answers %s with index.html, never cached, under the UI’s CSP',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(INDEX);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toMatch(/script-src 'self';/);
      expect(csp).toMatch(/connect-src 'self';/);
      expect(csp).not.toMatch(/unsafe-eval/);
    },
  );

  it('answers a repeated request with 304 by its ETag, and HEAD with headers only', async () => {
    const first = await get('/');
    const again = await get('/', { 'if-none-match': first.headers.get('etag')! });
    expect(again.status).toBe(304);
    const head = await fetch(mds.url + '/browse', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(INDEX)));
  });
});

describe('the build’s files', () => {
  it('serves a hashed asset as immutable, with its type', async () => {
    const res = await get('/assets/index-MsGu2Bap.js');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(SCRIPT);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-security-policy')).toBeNull();
    expect((await get('/assets/Mulish-Bold-DpJnP0uj.ttf')).headers.get('content-type')).toBe('font/ttf');
  });

  it('serves unhashed files revalidated each time', async () => {
    for (const path of ['/manifest.json', '/assets/icons/favicon.ico', '/node_modules/monaco-editor/min/vs/loader.js']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
    }
    expect((await get('/manifest.json')).headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('answers a missing file under assets/ with 404, not the page', async () => {
    const res = await get('/assets/index-gone0000.js');
    expect(res.status).toBe(404);
    expect((await res.json()).message).toBe('No file /assets/index-gone0000.js in the web UI');
  });

  it('serves nothing outside the folder, through .. or a link', async () => {
    for (const path of ['/assets/../../etc/passwd', '/assets/%2e%2e/%2e%2e/etc/passwd', '/assets/escape/secret.txt', '/assets/%00']) {
      const res = await send(mds.url, { method: 'GET', path, headers: {} });
      expect(res.body, path).not.toMatch(/root:|not the UI/);
      expect([200, 404], path).toContain(res.status);
      if (res.status === 200) expect(res.body, path).toBe(INDEX);
    }
    expect((await send(mds.url, { method: 'GET', path: '/assets/escape/secret.txt', headers: {} })).status).toBe(404);
  });
});

describe('the API beside it', () => {
  it('keeps its routes and answers its unknown paths with JSON 404s', async () => {
    const graphql = await fetch(`${mds.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ok' },
      body: JSON.stringify({ query: '{ word }' }),
    });
    expect(await graphql.json()).toEqual({ data: { word: 'hello' } });
    expect((await get('/health')).headers.get('content-type')).toMatch(/application\/json/);
    for (const path of ['/api/nothing', '/openapi/v9/nothing', '/gms/nothing']) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect((await res.json()).message, path).toBe(`No route for ${path}`);
    }
  });

  it('answers a write to a page path with 405', async () => {
    const res = await fetch(`${mds.url}/dataset/x`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('MDS_WEB_UI_DIR', () => {
  it('refuses a folder without index.html, naming the variable', () => {
    expect(() => loadConfig({ MDS_WEB_UI_DIR: tmpdir() + '/mds-no-such-ui' })).toThrow(/^Invalid MDS_WEB_UI_DIR=.*holds no index\.html/);
  });

  it('leaves / a 404 without it', async () => {
    const bare = await startServer(loadConfig({ PORT: '0' }), createLogger('silent'), { modules: [], authenticate: async () => null });
    try {
      expect((await fetch(bare.url + '/')).status).toBe(404);
    } finally {
      await bare.close();
    }
  });
});
