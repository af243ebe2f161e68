import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearSessionCookies, sessionTokenOf, setSessionCookies } from '../src/http/session';

// The session cookies as a browser receives them from a real HTTP server: names as DataHub's frontend sets them
// (`actor` for the page, Play's `PLAY_SESSION` for the token), flags, and the token read back from a request.
let server: Server;
let url: string;

function route(req: IncomingMessage, res: ServerResponse): void {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/set') {
    res.setHeader('set-cookie', 'other=1; Path=/');
    setSessionCookies(res, { actorUrn: 'urn:li:corpuser:jdoe', token: 'tok.en-1', maxAgeMs: 3_600_000, secure: false });
  } else if (path === '/set-secure') {
    setSessionCookies(res, { actorUrn: 'urn:li:corpuser:a b;c', token: 't', maxAgeMs: 90_500, secure: true });
  } else if (path === '/clear') {
    clearSessionCookies(res, { secure: false });
  } else if (path === '/clear-secure') {
    clearSessionCookies(res, { secure: true });
  }
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ token: sessionTokenOf(req) }));
}

beforeAll(async () => {
  server = createServer(route);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const cookieNamed = (res: Response, name: string) => res.headers.getSetCookie().find((line) => line.startsWith(`${name}=`));

describe('setSessionCookies', () => {
  it('sets actor readable by the page and PLAY_SESSION HttpOnly, both SameSite=Lax for the whole site, keeping other cookies', async () => {
    const res = await fetch(`${url}/set`);
    expect(res.headers.getSetCookie()).toHaveLength(3);
    expect(cookieNamed(res, 'other')).toBe('other=1; Path=/');
    expect(cookieNamed(res, 'actor')).toBe('actor=urn:li:corpuser:jdoe; Path=/; Max-Age=3600; SameSite=Lax');
    expect(cookieNamed(res, 'PLAY_SESSION')).toBe('PLAY_SESSION=tok.en-1; Path=/; Max-Age=3600; SameSite=Lax; HttpOnly');
  });

  it('marks both Secure over https and encodes what a cookie value cannot hold', async () => {
    const res = await fetch(`${url}/set-secure`);
    expect(cookieNamed(res, 'actor')).toBe('actor=urn:li:corpuser:a%20b%3Bc; Path=/; Max-Age=90; SameSite=Lax; Secure');
    expect(cookieNamed(res, 'PLAY_SESSION')).toBe('PLAY_SESSION=t; Path=/; Max-Age=90; SameSite=Lax; HttpOnly; Secure');
  });
});

describe('clearSessionCookies', () => {
  it('expires both cookies with the flags they were set with', async () => {
    const res = await fetch(`${url}/clear`);
    expect(cookieNamed(res, 'actor')).toBe('actor=; Path=/; Max-Age=0; SameSite=Lax; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
    expect(cookieNamed(res, 'PLAY_SESSION')).toBe(
      'PLAY_SESSION=; Path=/; Max-Age=0; SameSite=Lax; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly',
    );
    const secure = await fetch(`${url}/clear-secure`);
    expect(cookieNamed(secure, 'PLAY_SESSION')).toMatch(/; HttpOnly; Secure$/);
  });
});

describe('sessionTokenOf', () => {
  const tokenSent = async (cookie?: string) =>
    ((await (await fetch(`${url}/read`, { headers: cookie === undefined ? {} : { cookie } })).json()) as { token: string | null }).token;

  it('reads the token from PLAY_SESSION among other cookies, decoding it', async () => {
    expect(await tokenSent('actor=urn:li:corpuser:jdoe; PLAY_SESSION=abc%2Edef; theme=dark')).toBe('abc.def');
    expect(await tokenSent('PLAY_SESSION="quoted"')).toBe('quoted');
  });

  it('takes the first of a cookie sent twice', async () => {
    expect(await tokenSent('PLAY_SESSION=first; PLAY_SESSION=second')).toBe('first');
  });

  it('is null without the cookie, with an empty one, or with only the actor cookie', async () => {
    expect(await tokenSent()).toBeNull();
    expect(await tokenSent('PLAY_SESSION=')).toBeNull();
    expect(await tokenSent('actor=urn:li:corpuser:jdoe; XPLAY_SESSION=x')).toBeNull();
  });

  it('keeps a value that is not valid percent-encoding as sent', async () => {
    expect(await tokenSent('PLAY_SESSION=a%zz')).toBe('a%zz');
  });

  it('round-trips what setSessionCookies wrote', async () => {
    const res = await fetch(`${url}/set`);
    const cookie = res.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    expect(await tokenSent(cookie)).toBe('tok.en-1');
  });
});
