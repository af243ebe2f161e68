import type { SqlDialect } from '@mds/db';
import { parseElasticsearchConnection, type ElasticsearchConnection } from '@mds/elasticsearch';

/**
 * Where time-series documents live: an Elasticsearch/OpenSearch cluster when one is configured, else the server's
 * own database: the embedded SQLite file beside it, or its PostgreSQL database (shared by every replica).
 */
export type TimeseriesConfig = EmbeddedConfig | PostgresConfig | ElasticsearchConfig;

export interface EmbeddedConfig {
  backend: 'embedded';
  /** `INDEX_PREFIX`; '' for none. */
  indexPrefix: string;
}

/** Tables in the server's PostgreSQL database (`DATABASE_URL`), which createTimeseries is given. */
export interface PostgresConfig {
  backend: 'postgres';
  indexPrefix: string;
}

export interface ElasticsearchConfig extends ElasticsearchConnection {
  backend: 'elasticsearch';
  indexPrefix: string;
}

/** A configuration mistake, explained in one line (the server prints it and exits). */
export class TimeseriesConfigError extends Error {
  override name = 'TimeseriesConfigError';
}

/**
 * Reads the time-series backend from the environment: the cluster of `ELASTICSEARCH_URL` or `ELASTICSEARCH_HOST`
 * (see @mds/elasticsearch); else, when the server's database is PostgreSQL (`database`), that database; else the
 * embedded store. `INDEX_PREFIX` names the indices on any of them.
 */
export function parseTimeseriesConfig(env: NodeJS.ProcessEnv, options: { database?: SqlDialect } = {}): TimeseriesConfig {
  const indexPrefix = env.INDEX_PREFIX?.trim() ?? '';
  if (indexPrefix && !/^[a-z0-9][a-z0-9_-]*$/.test(indexPrefix)) {
    throw new TimeseriesConfigError(
      `INDEX_PREFIX must be lower-case letters, digits, '-' or '_', starting with a letter or digit (got '${indexPrefix}').`,
    );
  }
  const connection = parseElasticsearchConnection(env);
  if (connection) return { backend: 'elasticsearch', indexPrefix, ...connection };
  return { backend: options.database === 'postgres' ? 'postgres' : 'embedded', indexPrefix };
}
