import { ApiError, UNAUTHENTICATED_MESSAGE, forbidden, type Actor } from '@mds/schema';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProxyTrust } from './forwarded';
import { actorCookieOf, clearSessionCookies, sessionTokenOf } from './session';

/** DataHub's sign-in page, where its frontend sends whoever is not signed in (AuthUtils.LOGIN_ROUTE). */
export const LOGIN_ROUTE = '/login';

export interface SessionRouteOptions {
  /** Checks an `Authorization` header value (`Bearer <token>`), as every other path does. */
  authenticate(header: string | undefined): Actor | null | Promise<Actor | null>;
  /** Revokes a session token when signing out; absent, signing out only clears the cookies. */
  revokeSession?: ((token: string) => Promise<unknown>) | undefined;
  /** Whether `origin` is the site this request was addressed to (the origin guard's rule, see cors.ts). */
  isOwnOrigin(origin: string, req: IncomingMessage): boolean;
  proxies: ProxyTrust;
}

/**
 * What DataHub's web UI needs of its frontend besides signing in: its session taken from the cookie on
 * `/api/v2/graphql`, `/authenticate` and `/logOut`, answered as datahub-frontend answers them.
 */
export function createSessionRoutes(options: SessionRouteOptions) {
  const secure = (req: IncomingMessage) => options.proxies.protocolOf(req) === 'https';

  /**
   * The actor of a browser call: its Authorization header when it sends one (any client may), else its session
   * cookie — then only from a page of this site (CSRF). Throws 401 without either, 403 for a cross-site call.
   */
  async function browserActor(req: IncomingMessage): Promise<Actor> {
    const header = req.headers.authorization;
    const token = header === undefined ? sessionTokenOf(req) : null;
    if (token !== null) refuseCrossSite(req);
    const actor = await options.authenticate(header ?? (token === null ? undefined : `Bearer ${token}`));
    if (!actor) throw new ApiError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE);
    return actor;
  }

  /**
   * A cookie rides along with any request the browser sends to this site, whoever's page sent it: a call it
   * authenticates must show it came from a page of this site. Browsers send `Origin` with every POST and
   * `Sec-Fetch-Site` with every request; a sibling site (`same-site`) is refused too.
   */
  function refuseCrossSite(req: IncomingMessage): void {
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if (origin === undefined || !options.isOwnOrigin(origin, req) || (site !== undefined && site !== 'same-origin')) {
      throw forbidden(
        `A request signed in by the session cookie must come from a page of this site: ${origin === undefined ? 'it has no Origin header' : `Origin ${origin} is another site`}`,
      );
    }
  }

  /**
   * GET /authenticate?redirect_uri=…: to `redirect_uri` (a path on this site, else `/`) when the session cookie holds a
   * live session of the user the `actor` cookie names, else to the sign-in page, which comes back there afterwards.
   */
  async function authenticateRoute(req: IncomingMessage, res: ServerResponse, search: string): Promise<void> {
    const target = localPath(new URLSearchParams(search).get('redirect_uri'));
    const token = sessionTokenOf(req);
    const actor = token === null ? null : await options.authenticate(`Bearer ${token}`);
    if (actor && actor.urn === actorCookieOf(req)) return redirect(res, target);
    redirect(res, `${LOGIN_ROUTE}?${new URLSearchParams({ redirect_uri: target }).toString()}`);
  }

  /** GET /logOut: revokes the session token (when the auth service can), forgets both cookies, and goes to sign-in. */
  async function logOutRoute(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = sessionTokenOf(req);
    if (token !== null && options.revokeSession) await options.revokeSession(token);
    clearSessionCookies(res, { secure: secure(req) });
    redirect(res, LOGIN_ROUTE);
  }

  return { browserActor, authenticateRoute, logOutRoute, secure };
}

/**
 * `redirect_uri` as datahub-frontend takes it: a path on this site, `/` for anything else (missing, another site,
 * not a valid URI) and for `/logOut` (signing in must not sign out again). A backslash, a space or a control
 * character is refused too: a browser reads `/\host` as `//host`.
 */
export function localPath(redirectUri: string | null): string {
  if (redirectUri === null || redirectUri === '/logOut') return '/';
  if (!redirectUri.startsWith('/') || redirectUri.startsWith('//') || !/^[\x21-\x5B\x5D-\x7E]*$/.test(redirectUri)) return '/';
  return redirectUri;
}

/** Play's `Results.redirect`: 303 See Other. */
function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'content-length': 0, 'cache-control': 'no-store' }).end();
}
