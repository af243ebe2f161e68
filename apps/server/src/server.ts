import { buildApiSchema, type ApiModule } from '@mds/schema';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createApp, type AppOptions } from './app';
import type { Config } from './config';
import { createGraphQLExecutor } from './graphql';
import { graphqlLimitPlugins } from './graphql-limits';
import { answeringWhileParsing, sendJson } from './http/respond';
import { createWebUi } from './http/web-ui';
import type { Logger } from './logger';
import { createMetrics } from './metrics';
import { createReadiness } from './readiness';
import { createRestliDispatcher } from './restli';

/**
 * What the composition root hands the server: the packages' modules (their APIs, gauges and readiness checks) and
 * how to authenticate.
 */
export interface Composition {
  modules: ApiModule[];
  authenticate: AppOptions['authenticate'];
  /** The host's own routes (sign-in), when the composition has them. */
  pages?: AppOptions['pages'];
  /** Revokes a browser session's token when its user signs out (/logOut). */
  revokeSession?: AppOptions['revokeSession'];
}

export interface RunningServer<C extends Composition = Composition> {
  server: Server;
  url: string;
  composition: C;
  /** Stops accepting, lets in-flight requests finish (bounded), then releases every module. */
  close(): Promise<void>;
}

/** How often, while draining, connections that went idle after their last answer are closed. */
const DRAIN_SWEEP_MS = 10;

type ServerConfig = Pick<
  Config,
  | 'host'
  | 'port'
  | 'maxBodyBytes'
  | 'maxBulkBodyBytes'
  | 'maxConcurrentIngests'
  | 'bodyPace'
  | 'shutdownTimeoutMs'
  | 'corsOrigins'
  | 'trustedProxies'
  | 'publicOrigin'
  | 'webUiDir'
  | 'graphql'
  | 'metricsPublic'
>;

/**
 * Listens at once and answers 503 ("starting") until the composition is ready — opening databases and applying
 * migrations — then serves the API. A composition that fails closes the listener and rejects.
 */
export async function startServer<C extends Composition>(
  config: ServerConfig,
  logger: Logger,
  composition: C | (() => Promise<C>),
  hooks: { listening?(url: string): void } = {},
): Promise<RunningServer<C>> {
  // A missing or empty UI folder stops the start before the port is taken.
  const webUi = config.webUiDir === undefined ? undefined : createWebUi(config.webUiDir);
  let handle: RequestListener = starting;
  // Once closing, every answer closes its connection: busy keep-alive clients would otherwise hold the drain open
  // until the shutdown timeout, and then lose whatever was in flight.
  let draining = false;
  const server = createServer(
    { keepAliveTimeout: 5_000, requestTimeout: 60_000 },
    answeringWhileParsing((req, res) => {
      if (draining) res.setHeader('connection', 'close');
      handle(req, res);
    }),
  );
  server.on('connect', refuseConnect);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });

  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  hooks.listening?.(url);

  let composed: C;
  try {
    composed = typeof composition === 'function' ? await composition() : composition;
  } catch (error) {
    await new Promise((resolve) => server.close(resolve));
    throw error;
  }
  const modules = composed.modules;
  const schema = buildApiSchema(modules);
  handle = createApp({
    logger,
    metrics: createMetrics(modules.flatMap((m) => m.metrics ?? [])),
    readiness: createReadiness(modules.flatMap((m) => (m.ready ? [m.ready.bind(m)] : []))),
    maxBodyBytes: config.maxBodyBytes,
    maxBulkBodyBytes: config.maxBulkBodyBytes,
    maxConcurrentIngests: config.maxConcurrentIngests,
    bodyPace: config.bodyPace,
    corsOrigins: config.corsOrigins,
    trustedProxies: config.trustedProxies,
    publicOrigin: config.publicOrigin,
    webUi,
    metricsPublic: config.metricsPublic,
    authenticate: composed.authenticate,
    revokeSession: composed.revokeSession,
    executeGraphQL: createGraphQLExecutor({ schema, logger, plugins: graphqlLimitPlugins(config.graphql) }),
    restli: createRestliDispatcher(modules.flatMap((m) => m.actions ?? [])),
    routes: modules.flatMap((m) => m.routes ?? []),
    reads: modules.flatMap((m) => m.reads ?? []),
    pages: composed.pages,
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      draining = true;
      const drained = new Promise<void>((resolve) => server.close(() => resolve())); // closes idle connections too
      // Answers already under way when closing began go out keep-alive: close each connection soon after, rather
      // than watch every response of the server's life for this moment.
      const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
      const timer = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      await drained;
      clearInterval(sweep);
      clearTimeout(timer);
      for (const module of [...modules].reverse()) await module.close?.();
    })());
  return { server, url, composition: composed, close };
}

const starting: RequestListener = (req, res) => {
  const path = (req.url ?? '/').split('?', 1)[0];
  if (path === '/health') return sendJson(res, 503, { status: 'starting', reason: 'opening databases and applying migrations' });
  sendJson(res, 503, { message: 'mds is starting; retry shortly', status: 503 }, { 'retry-after': '1' });
};

/** Node drops a CONNECT (a proxy's method) without a word unless someone listens: refuse it like any other method. */
function refuseConnect(_req: unknown, socket: Duplex): void {
  const body = JSON.stringify({ message: 'Method CONNECT is not allowed', status: 405 });
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 405 Method Not Allowed\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}
