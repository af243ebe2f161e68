import { parseElasticsearchConnection, type ElasticsearchConnection } from '@mds/elasticsearch';

/** Where time-series documents live: the embedded SQLite file (default) or an Elasticsearch/OpenSearch cluster. */
export type TimeseriesConfig = EmbeddedConfig | ElasticsearchConfig;

export interface EmbeddedConfig {
  backend: 'embedded';
  /** `INDEX_PREFIX`; '' for none. */
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
 * (see @mds/elasticsearch), else the embedded store. `INDEX_PREFIX` names the indices on either.
 */
export function parseTimeseriesConfig(env: NodeJS.ProcessEnv): TimeseriesConfig {
  const indexPrefix = env.INDEX_PREFIX?.trim() ?? '';
  if (indexPrefix && !/^[a-z0-9][a-z0-9_-]*$/.test(indexPrefix)) {
    throw new TimeseriesConfigError(
      `INDEX_PREFIX must be lower-case letters, digits, '-' or '_', starting with a letter or digit (got '${indexPrefix}').`,
    );
  }
  const connection = parseElasticsearchConnection(env);
  return connection ? { backend: 'elasticsearch', indexPrefix, ...connection } : { backend: 'embedded', indexPrefix };
}
