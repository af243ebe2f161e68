import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProxyTrust } from './forwarded';
import { sendError } from './respond';

const ALLOWED_HEADERS = 'authorization, content-type, x-request-id';

export interface OriginRules {
  /** CORS_ORIGINS: other sites' origins allowed to call the API from a browser, with CORS headers. */
  allowedOrigins: readonly string[];
  /** DATAHUB_BASE_URL's origin: the address users open mds (or DataHub's frontend in front of it) at. */
  publicOrigin?: string | undefined;
  /** Which peers' `X-Forwarded-Host`/`-Proto` are believed (MDS_TRUSTED_PROXIES). */
  proxies: ProxyTrust;
}

/**
 * Whether `origin` is the site a request was addressed to: the configured public URL, or the host the browser
 * addressed (what a trusted proxy forwarded, else `Host`).
 */
export function ownOriginRule(rules: Pick<OriginRules, 'proxies' | 'publicOrigin'>) {
  const { proxies, publicOrigin } = rules;
  return (origin: string, req: IncomingMessage): boolean => {
    if (origin === publicOrigin) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false;
    }
    const host = proxies.hostOf(req);
    if (host === undefined || url.host !== host.toLowerCase()) return false;
    // The scheme is compared when a trusted proxy told it; a direct request's Host carries none.
    return !proxies.forwardedProtocol(req) || url.protocol === `${proxies.protocolOf(req)}:`;
  };
}

/**
 * Browsers may call the API only from its own origin or from an origin the operator lists in CORS_ORIGINS; any other
 * Origin is refused outright (403), so a page elsewhere can neither read answers nor fire writes. Its own origin is
 * the one the browser addressed (ownOriginRule).
 * Returns false when it answered the request itself (a refusal or a preflight).
 */
export function createCorsGuard(rules: OriginRules) {
  const allowed = new Set(rules.allowedOrigins);
  const isOwnOrigin = ownOriginRule(rules);
  return function admit(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (origin === undefined || isOwnOrigin(origin, req)) return true;
    if (!allowed.has(origin)) {
      sendError(
        res,
        403,
        `Cross-origin requests from ${origin} are not allowed: list the origin in CORS_ORIGINS (behind a proxy: set DATAHUB_BASE_URL or MDS_TRUSTED_PROXIES)`,
      );
      return false;
    }
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': ALLOWED_HEADERS,
        'access-control-max-age': '600',
      });
      res.end();
      return false;
    }
    return true;
  };
}
