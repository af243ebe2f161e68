import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './respond';

const ALLOWED_HEADERS = 'authorization, content-type, x-request-id';

/**
 * Browsers may call the API only from its own origin or from an origin the operator lists in CORS_ORIGINS; any other
 * Origin is refused outright (403), so a page elsewhere can neither read answers nor fire writes.
 * Returns false when it answered the request itself (a refusal or a preflight).
 */
export function createCorsGuard(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return function admit(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (origin === undefined || isSameOrigin(origin, req.headers.host)) return true;
    if (!allowed.has(origin)) {
      sendError(res, 403, `Cross-origin requests from ${origin} are not allowed: list the origin in CORS_ORIGINS`);
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

function isSameOrigin(origin: string, host: string | undefined): boolean {
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}
