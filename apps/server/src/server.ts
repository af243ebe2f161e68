import { buildApiSchema, type Actor, type ApiModule } from '@mds/schema';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type JsonRoute } from './app';
import type { Config } from './config';
import { createCoreModule } from './core-module';
import { createGraphQLExecutor } from './graphql';
import { graphqlLimitPlugins } from './graphql-limits';
import type { Logger } from './logger';
import { createRestliDispatcher } from './restli';
import { version } from './version';

/** What the composition root hands the server: the packages' modules and how to authenticate. */
export interface Composition {
  modules: ApiModule[];
  authenticate(authorization: string | undefined): Promise<Actor | null>;
  routes?: JsonRoute[];
}

export interface RunningServer {
  server: Server;
  url: string;
  /** Stops accepting, lets in-flight requests finish (bounded), then releases every module. */
  close(): Promise<void>;
}

export async function startServer(
  config: Pick<Config, 'host' | 'port' | 'maxBodyBytes' | 'maxBulkBodyBytes' | 'shutdownTimeoutMs' | 'corsOrigins' | 'graphql'>,
  logger: Logger,
  composition: Composition,
): Promise<RunningServer> {
  const modules = [createCoreModule(version), ...composition.modules];
  const schema = buildApiSchema(modules.flatMap((m) => (m.resolvers ? [m.resolvers] : [])));
  const app = createApp({
    logger,
    maxBodyBytes: config.maxBodyBytes,
    maxBulkBodyBytes: config.maxBulkBodyBytes,
    corsOrigins: config.corsOrigins,
    authenticate: composition.authenticate,
    executeGraphQL: createGraphQLExecutor({ schema, logger, plugins: graphqlLimitPlugins(config.graphql) }),
    restli: createRestliDispatcher(modules.flatMap((m) => m.actions ?? [])),
    routes: composition.routes,
  });
  const server = createServer({ keepAliveTimeout: 5_000, requestTimeout: 60_000 }, app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), config.shutdownTimeoutMs);
      await drained;
      clearTimeout(timer);
      for (const module of [...modules].reverse()) await module.close?.();
    })());
  return { server, url: `http://${host}:${port}`, close };
}
