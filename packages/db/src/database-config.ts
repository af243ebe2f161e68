import { DEFAULT_POOL_SIZE } from './postgres-adapter';

/** Where the data lives, as the environment says: SQLite files in DATA_DIR (the default), or a PostgreSQL server. */
export type DatabaseConfig =
  | { dialect: 'sqlite'; logLine: string }
  | {
      dialect: 'postgres';
      /** `postgres://user:password@host:port/database?…`, for openPostgresDatabase. */
      url: string;
      poolSize: number;
      /** What to log: the server and database, the password masked, and which variable said so. */
      logLine: string;
    };

/** A variable that cannot be used as it is; the message names it, for the one line a refused start prints. */
export class DatabaseConfigError extends Error {
  override name = 'DatabaseConfigError';
}

type Env = Readonly<Record<string, string | undefined>>;

const MAX_POOL_SIZE = 1000;

/**
 * The database of a server or CLI from its environment (pure). `DATABASE_URL=postgres://user:password@host:port/db`
 * selects PostgreSQL; so does DataHub's `EBEAN_DATASOURCE_URL=jdbc:postgresql://host:port/db` with
 * `EBEAN_DATASOURCE_USERNAME` / `EBEAN_DATASOURCE_PASSWORD` (DATABASE_URL wins when both are set). TLS comes with the
 * URL (`?sslmode=require`) or PGSSLMODE. The pool holds `DATABASE_POOL_SIZE` (or DataHub's `EBEAN_MAX_CONNECTIONS`)
 * connections, 10 by default. Neither set: SQLite in DATA_DIR.
 */
export function databaseFromEnv(env: Env): DatabaseConfig {
  const fromUrl = present(env.DATABASE_URL);
  const fromEbean = present(env.EBEAN_DATASOURCE_URL);
  if (fromUrl === undefined && fromEbean === undefined) return { dialect: 'sqlite', logLine: 'database: SQLite files in DATA_DIR' };
  const [variable, url] =
    fromUrl !== undefined ? ['DATABASE_URL', postgresUrl(fromUrl)] : ['EBEAN_DATASOURCE_URL', ebeanUrl(fromEbean!, env)];
  const poolSize = poolSizeFrom(env);
  return { dialect: 'postgres', url, poolSize, logLine: `database: PostgreSQL ${masked(url)} (from ${variable}, pool of ${poolSize})` };
}

const present = (value: string | undefined) => (value === undefined || value.trim() === '' ? undefined : value.trim());

function postgresUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new DatabaseConfigError('DATABASE_URL must be a URL: postgres://user:password@host:port/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new DatabaseConfigError(
      `DATABASE_URL must be a postgres:// URL (postgres://user:password@host:port/database), not ${url.protocol}//…`,
    );
  }
  if (url.hostname === '') throw new DatabaseConfigError('DATABASE_URL names no host: postgres://user:password@host:port/database');
  return value;
}

/** DataHub's JDBC URL and credentials as a postgres:// URL; its query parameters (sslmode, …) are kept. */
function ebeanUrl(value: string, env: Env): string {
  const match = /^jdbc:postgresql:\/\/([^/?#]+)(\/[^?#]*)?(\?[^#]*)?$/.exec(value);
  if (!match) {
    const scheme = /^jdbc:([a-z0-9]+):/i.exec(value)?.[1];
    const why =
      scheme && scheme !== 'postgresql'
        ? `${scheme} is not supported: mds stores on PostgreSQL, or on SQLite when this is unset`
        : 'expected jdbc:postgresql://host:port/database';
    throw new DatabaseConfigError(`EBEAN_DATASOURCE_URL: ${why}`);
  }
  const [, hosts, path = '/', query = ''] = match;
  if (hosts!.includes(','))
    throw new DatabaseConfigError('EBEAN_DATASOURCE_URL: several hosts are not supported; name one (a primary or a proxy)');
  const user = present(env.EBEAN_DATASOURCE_USERNAME);
  const password = env.EBEAN_DATASOURCE_PASSWORD ?? '';
  const credentials = user === undefined ? '' : `${encodeURIComponent(user)}${password === '' ? '' : `:${encodeURIComponent(password)}`}@`;
  return postgresUrl(`postgres://${credentials}${hosts}${path}${query}`);
}

function poolSizeFrom(env: Env): number {
  for (const variable of ['DATABASE_POOL_SIZE', 'EBEAN_MAX_CONNECTIONS']) {
    const value = present(env[variable]);
    if (value === undefined) continue;
    const size = Number(value);
    if (!Number.isInteger(size) || size < 1 || size > MAX_POOL_SIZE)
      throw new DatabaseConfigError(`${variable} must be an integer from 1 to ${MAX_POOL_SIZE}, not ${value}`);
    return size;
  }
  return DEFAULT_POOL_SIZE;
}

/** The URL with its password (in the credentials or a `password` parameter) replaced by `****`, for logs. */
export function masked(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '****';
  if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '****');
  return parsed.toString();
}
