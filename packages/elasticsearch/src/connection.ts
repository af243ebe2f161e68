/**
 * Which wire dialect the cluster speaks. `auto` asks the cluster (`GET /`) on first use; pin it when the
 * credentials may not call `GET /` (it needs the `monitor` cluster privilege) or a proxy hides the product header.
 * `elasticsearch` is DataHub's value for "Elasticsearch, major version detected".
 */
export type ElasticsearchImplementation = 'auto' | 'elasticsearch' | 'elasticsearch8' | 'elasticsearch9' | 'opensearch';

/** Where the cluster is and how to talk to it: what every package that uses the cluster shares. */
export interface ElasticsearchConnection {
  /** Base URL without credentials, e.g. `https://es.internal:9200`. */
  node: string;
  username?: string;
  password?: string;
  /** Bound on every operation against the cluster: beyond it the caller gets a 503. */
  requestTimeoutMs: number;
  implementation: ElasticsearchImplementation;
}

export const DEFAULT_ELASTICSEARCH_TIMEOUT_MS = 10_000;
const IMPLEMENTATIONS: readonly ElasticsearchImplementation[] = ['auto', 'elasticsearch', 'elasticsearch8', 'elasticsearch9', 'opensearch'];

/** A configuration mistake, explained in one line (the server prints it and exits). */
export class ElasticsearchConfigError extends Error {
  override name = 'ElasticsearchConfigError';
}

/**
 * Reads the cluster from the environment, or undefined when none is configured. `ELASTICSEARCH_URL` (credentials may
 * be inline), or DataHub's `ELASTICSEARCH_HOST` + `ELASTICSEARCH_PORT` (9200) + `ELASTICSEARCH_USE_SSL` (false); the
 * URL wins when both are set. `ELASTICSEARCH_USERNAME`/`ELASTICSEARCH_PASSWORD` override inline credentials. Without
 * either, the other ELASTICSEARCH_* variables are ignored.
 */
export function parseElasticsearchConnection(env: NodeJS.ProcessEnv): ElasticsearchConnection | undefined {
  const read = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const url = read('ELASTICSEARCH_URL');
  const host = read('ELASTICSEARCH_HOST');
  if (!url && !host) return undefined;

  let parsed: URL;
  const source = url ? 'ELASTICSEARCH_URL' : 'ELASTICSEARCH_HOST';
  try {
    parsed = url ? new URL(url) : new URL(hostUrl(host!, read('ELASTICSEARCH_PORT'), read('ELASTICSEARCH_USE_SSL')));
  } catch (error) {
    if (error instanceof ElasticsearchConfigError) throw error;
    throw new ElasticsearchConfigError(`${source} is not a valid URL or host name (got '${url ?? host}').`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ElasticsearchConfigError(`${source} must use http or https (got '${parsed.protocol.replace(/:$/, '')}').`);
  }

  let username = parsed.username ? decodeURIComponent(parsed.username) : undefined;
  let password = parsed.password ? decodeURIComponent(parsed.password) : undefined;
  parsed.username = '';
  parsed.password = '';
  username = read('ELASTICSEARCH_USERNAME') ?? username;
  password = read('ELASTICSEARCH_PASSWORD') ?? password;
  if ((username === undefined) !== (password === undefined)) {
    throw new ElasticsearchConfigError('ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD must be set together.');
  }

  const timeout = read('ELASTICSEARCH_TIMEOUT_MS');
  const requestTimeoutMs = timeout === undefined ? DEFAULT_ELASTICSEARCH_TIMEOUT_MS : Number(timeout);
  if (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs < 1 || requestTimeoutMs > 600_000) {
    throw new ElasticsearchConfigError(`ELASTICSEARCH_TIMEOUT_MS must be an integer from 1 to 600000 (got '${timeout}').`);
  }

  const implementation = (read('ELASTICSEARCH_IMPLEMENTATION')?.toLowerCase() ?? 'auto') as ElasticsearchImplementation;
  if (!IMPLEMENTATIONS.includes(implementation)) {
    throw new ElasticsearchConfigError(
      `ELASTICSEARCH_IMPLEMENTATION must be one of ${IMPLEMENTATIONS.join(', ')} (got '${env.ELASTICSEARCH_IMPLEMENTATION}').`,
    );
  }

  const connection: ElasticsearchConnection = { node: parsed.toString().replace(/\/$/, ''), requestTimeoutMs, implementation };
  if (username !== undefined && password !== undefined) Object.assign(connection, { username, password });
  return connection;
}

function hostUrl(host: string, port: string | undefined, useSsl: string | undefined): string {
  if (port !== undefined && !/^\d{1,5}$/.test(port)) {
    throw new ElasticsearchConfigError(`ELASTICSEARCH_PORT must be a port number (got '${port}').`);
  }
  const ssl = useSsl?.toLowerCase();
  if (ssl !== undefined && ssl !== 'true' && ssl !== 'false') {
    throw new ElasticsearchConfigError(`ELASTICSEARCH_USE_SSL must be true or false (got '${useSsl}').`);
  }
  if (host.includes('/')) {
    throw new ElasticsearchConfigError(
      `ELASTICSEARCH_HOST must be a host name without scheme or path (got '${host}'); use ELASTICSEARCH_URL for a URL.`,
    );
  }
  return `${ssl === 'true' ? 'https' : 'http'}://${host}:${port ?? '9200'}`;
}
