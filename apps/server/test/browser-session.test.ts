import type { Actor } from '@mds/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { localPath } from '../src/http/session-routes';
import { createLogger } from '../src/logger';
import { startServer, type RunningServer } from '../src/server';

// The web UI's paths on the host (issue 32): /api/v2/graphql signed in by the session cookie, with its CSRF defence,
// /authenticate and /logOut as datahub-frontend answers them. The auth service is a stand-in holding live sessions,
// so the host's rules are tested apart from how sessions are made (apps/server/test/sign-in*.test.ts).
const tester: Actor = { urn: 'urn:li:corpuser:tester', privileges: new Set() };
const live = new Set<string>();
const revoked: string[] = [];

let mds: RunningServer;
beforeAll(async () => {
  mds = await startServer(
    // 127.0.0.1 (this test) is a trusted proxy: its X-Forwarded-Proto says whether the browser used https.
    loadConfig({ PORT: '0', CORS_ORIGINS: 'https://partner.example', MDS_TRUSTED_PROXIES: '127.0.0.1' }),
    createLogger('silent'),
    {
      modules: [
        {
          name: 'test',
          typeDefs: ['extend type Query { me: String }'],
          resolvers: { Query: { me: (_: unknown, __: unknown, ctx: { actor: Actor }) => ctx.actor.urn } } as never,
        },
      ],
      authenticate: async (header) =>
        header === 'Bearer ok' || (header?.startsWith('Bearer ') && live.has(header.slice(7))) ? tester : null,
      revokeSession: async (token) => {
        revoked.push(token);
        return live.delete(token);
      },
    },
  );
});
afterAll(() => mds?.close());

/** A fresh live session and the Cookie header a browser signed in with it sends. */
function signedIn(): { token: string; cookie: string } {
  const token = `session-${live.size + revoked.length + 1}`;
  live.add(token);
  return { token, cookie: `actor=${tester.urn}; PLAY_SESSION=${token}` };
}

const query = JSON.stringify({ query: '{ me }' });
const uiGraphql = (headers: Record<string, string>, body = query) =>
  fetch(`${mds.url}/api/v2/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
const get = (path: string, headers: Record<string, string> = {}) => fetch(mds.url + path, { headers, redirect: 'manual' });

describe('POST /api/v2/graphql', () => {
  it('answers a page of this site signed in by the session cookie', async () => {
    const { cookie } = signedIn();
    const res = await uiGraphql({ cookie, origin: mds.url, 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { me: tester.urn } });
  });

  it('answers an Authorization header as /api/graphql does, with no Origin needed', async () => {
    const res = await uiGraphql({ authorization: 'Bearer ok' });
    expect(await res.json()).toEqual({ data: { me: tester.urn } });
  });

  it('refuses a cross-site call carrying the session cookie, even from an origin CORS_ORIGINS lists', async () => {
    const { cookie } = signedIn();
    const foreign = await uiGraphql({ cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(foreign.status).toBe(403);
    const partner = await uiGraphql({ cookie, origin: 'https://partner.example', 'sec-fetch-site': 'cross-site' });
    expect(partner.status).toBe(403);
    expect((await partner.json()).errors[0]).toEqual({
      message:
        'A request signed in by the session cookie must come from a page of this site: Origin https://partner.example is another site',
      extensions: { code: 403, type: 'UNAUTHORIZED' },
    });
  });

  it('refuses the session cookie without an Origin, or from a sibling site', async () => {
    const { cookie } = signedIn();
    const bare = await uiGraphql({ cookie });
    expect(bare.status).toBe(403);
    expect((await bare.json()).errors[0].message).toMatch(/it has no Origin header$/);
    expect((await uiGraphql({ cookie, origin: mds.url, 'sec-fetch-site': 'same-site' })).status).toBe(403);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'])(
    'takes JSON only: a %s body (what a cross-site form can send) is refused with 415',
    async (type) => {
      const { cookie } = signedIn();
      const res = await fetch(`${mds.url}/api/v2/graphql`, {
        method: 'POST',
        headers: { 'content-type': type, cookie, origin: mds.url },
        body: query,
      });
      expect(res.status).toBe(415);
    },
  );

  it('answers 401 without a session, or with one that is over', async () => {
    expect((await uiGraphql({ origin: mds.url })).status).toBe(401);
    expect((await uiGraphql({ origin: mds.url, cookie: 'PLAY_SESSION=never-issued' })).status).toBe(401);
  });

  it('answers other methods with 405', async () => {
    expect((await get('/api/v2/graphql')).status).toBe(405);
  });
});

describe('GET /authenticate', () => {
  it('sends a signed-in browser on to redirect_uri', async () => {
    const { cookie } = signedIn();
    const res = await get('/authenticate?redirect_uri=%2Fdataset%2Furn%3Ali%3Adataset%3Ax%3Ftab%3DSchema', { cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/dataset/urn:li:dataset:x?tab=Schema');
  });

  it('sends anyone else to the sign-in page, which comes back there', async () => {
    const none = await get('/authenticate?redirect_uri=%2Fsearch%3Fquery%3Da%2520b');
    expect(none.status).toBe(303);
    expect(none.headers.get('location')).toBe('/login?redirect_uri=%2Fsearch%3Fquery%3Da%2520b');
    // A session that is over, or an actor cookie naming someone else, is no sign-in either.
    expect((await get('/authenticate', { cookie: `actor=${tester.urn}; PLAY_SESSION=gone` })).headers.get('location')).toBe(
      '/login?redirect_uri=%2F',
    );
    const { token } = signedIn();
    const other = await get('/authenticate', { cookie: `actor=urn:li:corpuser:other; PLAY_SESSION=${token}` });
    expect(other.headers.get('location')).toBe('/login?redirect_uri=%2F');
  });

  it('goes nowhere but this site', async () => {
    const { cookie } = signedIn();
    for (const uri of ['https://evil.example/x', '//evil.example/x', '/\\evil.example', '/logOut', 'javascript:alert(1)']) {
      const res = await get(`/authenticate?redirect_uri=${encodeURIComponent(uri)}`, { cookie });
      expect(res.headers.get('location'), uri).toBe('/');
    }
  });
});

describe('GET /logOut', () => {
  it('revokes the session, forgets both cookies and goes to the sign-in page', async () => {
    const { token, cookie } = signedIn();
    const res = await get('/logOut', { cookie });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login');
    expect(revoked).toContain(token);
    const cleared = res.headers.getSetCookie();
    expect(cleared).toEqual([
      expect.stringMatching(/^actor=; Path=\/; Max-Age=0;/),
      expect.stringMatching(/^PLAY_SESSION=; Path=\/; Max-Age=0;.*HttpOnly$/),
    ]);
    // The token the browser held no longer works, cookie or not.
    expect((await uiGraphql({ cookie, origin: mds.url })).status).toBe(401);
    expect((await uiGraphql({ authorization: `Bearer ${token}` })).status).toBe(401);
  });

  it('marks the cleared cookies Secure when the browser came over https through a trusted proxy', async () => {
    const res = await get('/logOut', { 'x-forwarded-proto': 'https' });
    expect(res.headers.getSetCookie().every((line) => line.endsWith('; Secure'))).toBe(true);
    expect((await get('/logOut')).headers.getSetCookie().some((line) => line.includes('Secure'))).toBe(false);
  });
});

describe('localPath (redirect_uri)', () => {
  it.each([
    [null, '/'],
    ['/', '/'],
    ['/glossary?x=1#y', '/glossary?x=1#y'],
    ['/logOut', '/'],
    ['dataset', '/'],
    ['http://evil.example', '/'],
    ['//evil.example', '/'],
    ['/\\evil.example', '/'],
    ['/a b', '/'],
    ['/a\nb', '/'],
  ])('%j → %s', (given, expected) => {
    expect(localPath(given)).toBe(expected);
  });
});
