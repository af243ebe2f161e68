import { databaseFromEnv, type DatabaseConfig } from '@mds/db';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { isProxyEntry } from './http/forwarded';

const MiB = 1024 * 1024;

const port = z.coerce.number().int().min(0).max(65_535);
const bytes = z.coerce.number().int().positive();
const limit = z.coerce.number().int().positive();
const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

/** Every variable the host reads, with its default. Domain packages parse their own (e.g. ELASTICSEARCH_*). */
const schema = z.object({
  PORT: port.default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  MAX_BODY_BYTES: bytes.default(MiB),
  MAX_INGEST_BODY_BYTES: bytes.default(16 * MiB),
  MAX_CONCURRENT_INGESTS: limit.default(1),
  BODY_READ_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  BODY_MIN_BYTES_PER_SECOND: limit.default(16 * 1024),
  METRICS_PUBLIC: bool.default(false),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  // DataHub's names and defaults for the first three.
  GRAPHQL_QUERY_INTROSPECTION_ENABLED: bool.default(true),
  GRAPHQL_QUERY_DEPTH_LIMIT: limit.default(50),
  GRAPHQL_QUERY_COMPLEXITY_LIMIT: limit.default(5000),
  GRAPHQL_QUERY_MAX_ALIASES: limit.default(1500),
  GRAPHQL_QUERY_MAX_DIRECTIVES: limit.default(30),
  GRAPHQL_QUERY_MAX_TOKENS: limit.default(5000),
  // DataHub's authorization switches, with its defaults (metadata-service/configuration application.yaml).
  REST_API_AUTHORIZATION_ENABLED: bool.default(true),
  VIEW_AUTHORIZATION_ENABLED: bool.default(false),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.url({ error: 'must be a comma-separated list of origins like https://app.example.com' }))),
  MDS_TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(z.string().refine(isProxyEntry, { error: 'must be a comma-separated list of addresses or CIDR blocks like 10.0.0.0/8' })),
    ),
  // DataHub's variable for the address users open DataHub at (metadata-service's `baseUrl`); no default here.
  DATAHUB_BASE_URL: z.url({ error: 'must be a URL like https://datahub.example.com' }).optional(),
  MDS_WEB_UI_DIR: z
    .string()
    .refine((dir) => existsSync(join(dir, 'index.html')), {
      error: 'holds no index.html: point it at the dist folder of a built DataHub web UI',
    })
    .optional(),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  production: boolean;
  maxBodyBytes: number;
  /** The body limit of bulk actions (ingestion). */
  maxBulkBodyBytes: number;
  /** Ingestion requests read and processed at once; the others wait with their bodies still unread. */
  maxConcurrentIngests: number;
  /** How slowly a request body may arrive: any pace for `graceMs`, then `minBytesPerSecond` on average, else 408. */
  bodyPace: { graceMs: number; minBytesPerSecond: number };
  shutdownTimeoutMs: number;
  /** Serve /metrics without credentials. */
  metricsPublic: boolean;
  /** Origins allowed to call the API from a browser; none by default. */
  corsOrigins: string[];
  /** Peers whose X-Forwarded-Host/-Proto are believed (MDS_TRUSTED_PROXIES: addresses and CIDR blocks); none by default. */
  trustedProxies: string[];
  /** The origin of DATAHUB_BASE_URL, where users open mds or DataHub's frontend in front of it: a browser there is at home. */
  publicOrigin: string | undefined;
  /** MDS_WEB_UI_DIR: a built DataHub web UI to serve (its files, and index.html for the UI's pages); none by default. */
  webUiDir: string | undefined;
  graphql: {
    introspection: boolean;
    maxDepth: number;
    maxComplexity: number;
    maxAliases: number;
    maxDirectives: number;
    maxTokens: number;
  };
  /**
   * DataHub's switches: REST_API_AUTHORIZATION_ENABLED (Rest.li and OpenAPI reads, writes and deletes checked) and
   * VIEW_AUTHORIZATION_ENABLED (GraphQL reads of view-restricted entity types checked).
   */
  authorization: { restApi: boolean; view: boolean };
  /** SQLite files in dataDir, or the PostgreSQL server of DATABASE_URL / EBEAN_DATASOURCE_URL (read by @mds/db). */
  database: DatabaseConfig;
  /** The whole environment, for the packages that read their own variables. */
  env: NodeJS.ProcessEnv;
};

export class ConfigError extends Error {
  override name = 'ConfigurationError';
}

/**
 * Reads and validates the environment; a bad value throws one line naming the variable and the rule (a
 * DatabaseConfigError for the database's variables), before the server listens.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new ConfigError(`Invalid ${name}=${JSON.stringify(env[name])}: ${issue.message}`);
  }
  const c = parsed.data;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: c.DATA_DIR,
    logLevel: c.LOG_LEVEL,
    production: c.NODE_ENV === 'production',
    maxBodyBytes: c.MAX_BODY_BYTES,
    maxBulkBodyBytes: c.MAX_INGEST_BODY_BYTES,
    maxConcurrentIngests: c.MAX_CONCURRENT_INGESTS,
    bodyPace: { graceMs: c.BODY_READ_TIMEOUT_MS, minBytesPerSecond: c.BODY_MIN_BYTES_PER_SECOND },
    shutdownTimeoutMs: c.SHUTDOWN_TIMEOUT_MS,
    metricsPublic: c.METRICS_PUBLIC,
    corsOrigins: c.CORS_ORIGINS.map((o) => new URL(o).origin),
    trustedProxies: c.MDS_TRUSTED_PROXIES,
    publicOrigin: c.DATAHUB_BASE_URL === undefined ? undefined : new URL(c.DATAHUB_BASE_URL).origin,
    webUiDir: c.MDS_WEB_UI_DIR,
    graphql: {
      introspection: c.GRAPHQL_QUERY_INTROSPECTION_ENABLED,
      maxDepth: c.GRAPHQL_QUERY_DEPTH_LIMIT,
      maxComplexity: c.GRAPHQL_QUERY_COMPLEXITY_LIMIT,
      maxAliases: c.GRAPHQL_QUERY_MAX_ALIASES,
      maxDirectives: c.GRAPHQL_QUERY_MAX_DIRECTIVES,
      maxTokens: c.GRAPHQL_QUERY_MAX_TOKENS,
    },
    authorization: { restApi: c.REST_API_AUTHORIZATION_ENABLED, view: c.VIEW_AUTHORIZATION_ENABLED },
    database: databaseFromEnv(env),
    env,
  };
}
