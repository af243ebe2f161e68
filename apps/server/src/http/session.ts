import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The two cookies a browser session with mds rests on, named as DataHub's frontend names them so DataHub's web UI
 * works unchanged:
 * - `actor` (datahub-frontend's AuthUtils.ACTOR, the web UI's CLIENT_AUTH_COOKIE): the signed-in user's urn, readable
 *   by the page, which only looks at whether it is there and whom it names;
 * - `PLAY_SESSION` (the Play framework's session cookie, which datahub-frontend keeps the session token in): the
 *   session token itself, HttpOnly so no script on the page can read it.
 * Both are `SameSite=Lax` (datahub-frontend's default) and `Secure` when the browser reached mds over https.
 */
export const ACTOR_COOKIE = 'actor';
export const SESSION_COOKIE = 'PLAY_SESSION';

export interface SessionCookies {
  actorUrn: string;
  token: string;
  /** How long the browser keeps both cookies. */
  maxAgeMs: number;
  /** True when the request came over https (directly or through a trusted proxy). */
  secure: boolean;
}

/** Adds the session's two cookies to the answer, keeping any Set-Cookie already on it. */
export function setSessionCookies(res: ServerResponse, session: SessionCookies): void {
  const maxAge = Math.max(0, Math.floor(session.maxAgeMs / 1000));
  appendSetCookie(res, [
    cookieLine(ACTOR_COOKIE, session.actorUrn, { maxAge, httpOnly: false, secure: session.secure }),
    cookieLine(SESSION_COOKIE, session.token, { maxAge, httpOnly: true, secure: session.secure }),
  ]);
}

/** Tells the browser to forget both cookies (same names, path and flags, expired at once). */
export function clearSessionCookies(res: ServerResponse, options: { secure: boolean }): void {
  appendSetCookie(res, [
    cookieLine(ACTOR_COOKIE, '', { maxAge: 0, httpOnly: false, secure: options.secure }),
    cookieLine(SESSION_COOKIE, '', { maxAge: 0, httpOnly: true, secure: options.secure }),
  ]);
}

/** The session token the request's session cookie carries, or null when it carries none. */
export function sessionTokenOf(req: IncomingMessage): string | null {
  const token = cookiesOf(req).get(SESSION_COOKIE);
  return token ? token : null;
}

/** The urn the request's `actor` cookie names, or null. */
export function actorCookieOf(req: IncomingMessage): string | null {
  const actor = cookiesOf(req).get(ACTOR_COOKIE);
  return actor ? actor : null;
}

/** The request's cookies by name; of a name sent twice, the first (the browser sends the most specific path first). */
export function cookiesOf(req: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  const header = req.headers.cookie;
  if (!header) return cookies;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name === '' || cookies.has(name)) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    cookies.set(name, decodeValue(value));
  }
  return cookies;
}

interface CookieFlags {
  maxAge: number;
  httpOnly: boolean;
  secure: boolean;
}

function cookieLine(name: string, value: string, flags: CookieFlags): string {
  const parts = [`${name}=${encodeValue(value)}`, 'Path=/', `Max-Age=${flags.maxAge}`, 'SameSite=Lax'];
  if (flags.maxAge === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (flags.httpOnly) parts.push('HttpOnly');
  if (flags.secure) parts.push('Secure');
  return parts.join('; ');
}

function appendSetCookie(res: ServerResponse, lines: string[]): void {
  const existing = res.getHeader('set-cookie');
  const before = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)];
  res.setHeader('set-cookie', [...before, ...lines]);
}

/**
 * Percent-encodes only what a cookie value may not hold (RFC 6265's cookie-octet excludes controls, space, `"`, `,`,
 * `;` and `\`) plus `%` itself, so a urn like `urn:li:corpuser:jdoe` travels as written and the page reads it as is.
 */
function encodeValue(value: string): string {
  return value.replace(/[^\x21\x23-\x24\x26-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]/gu, (c) => encodeURIComponent(c));
}

function decodeValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
