import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

// Stand-ins for a cluster mds cannot use: nothing listening, a listener that never answers, and a tiny
// Elasticsearch 9 that knows only what mds asks first (GET / and the size statistics of an empty cluster).

interface FakeCluster {
  port: number;
  url: string;
  close(): Promise<void>;
}

const listen = async (server: HttpServer | TcpServer, port: number): Promise<number> => {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return (server.address() as AddressInfo).port;
};

/** A loopback port with nothing listening on it (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  const port = await listen(server, 0);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Accepts connections and reads requests, but never answers. */
export async function silentCluster(): Promise<FakeCluster> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket.on('close', () => sockets.delete(socket)).on('error', () => undefined));
    socket.resume();
  });
  const bound = await listen(server, 0);
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const ES9_INFO = {
  name: 'fake',
  cluster_name: 'fake',
  cluster_uuid: 'robustnessFakeCluster0',
  version: { number: '9.1.0', build_flavor: 'default', build_type: 'docker', lucene_version: '10.2.2' },
  tagline: 'You Know, for Search',
};

/** Answers `GET /` as Elasticsearch 9.1 and `GET /<pattern>/_stats/store` with no indices; anything else is a 404. */
export async function elasticsearch9(port: number): Promise<FakeCluster & { requests: string[] }> {
  const requests: string[] = [];
  const server = createHttpServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    const path = (req.url ?? '/').split('?')[0]!;
    const [status, body] =
      req.method === 'GET' && path === '/'
        ? [200, ES9_INFO]
        : req.method === 'GET' && path.endsWith('/_stats/store')
          ? [200, { _shards: { total: 0, successful: 0, failed: 0 }, _all: { primaries: {}, total: {} }, indices: {} }]
          : [404, { error: { type: 'resource_not_found_exception', reason: `${req.method} ${path}` }, status: 404 }];
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-elastic-product': 'Elasticsearch',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  });
  const bound = await listen(server, port);
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
