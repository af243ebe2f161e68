import { createServer, request, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for DataHub's frontend server in front of mds, forwarding as its proxy does (datahub-frontend's
 * Application.proxy, at the commit in /work/datahub): every browser header but connection, host, content-length,
 * expect, upgrade and transfer-encoding; `X-Forwarded-Host` set to the browser's `Host` and `X-Forwarded-Proto` to
 * `http` unless the browser's request already had them. It calls mds from `localAddress`, so a test can choose
 * whether mds trusts it. `/api/v2/graphql` is mapped to `/api/graphql` as the frontend maps it.
 */
export async function startFrontendProxy(target: string, options: { localAddress: string }) {
  const server = createServer((req, res) => {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined && !RESTRICTED.has(name)) headers[name] = value;
    }
    if (req.headers.host !== undefined && req.headers['x-forwarded-host'] === undefined) headers['x-forwarded-host'] = req.headers.host;
    if (req.headers['x-forwarded-proto'] === undefined) headers['x-forwarded-proto'] = 'http';
    const path = (req.url ?? '/').replace(/^\/api\/v2\/graphql/, '/api/graphql');
    const upstream = request(target + path, { method: req.method, headers, localAddress: options.localAddress, agent: false }, (answer) => {
      const back: OutgoingHttpHeaders = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && name !== 'transfer-encoding' && name !== 'connection') back[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, back);
      answer.pipe(res);
    });
    upstream.on('error', (error) => res.writeHead(502).end(error.message));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const RESTRICTED = new Set(['connection', 'host', 'content-length', 'expect', 'upgrade', 'transfer-encoding']);
