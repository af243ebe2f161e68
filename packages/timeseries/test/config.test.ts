import { describe, expect, it } from 'vitest';
import { parseTimeseriesConfig, TimeseriesConfigError } from '../src/index.ts';

describe('parseTimeseriesConfig', () => {
  it('defaults to the embedded store without prefix', () => {
    expect(parseTimeseriesConfig({})).toEqual({ backend: 'embedded', indexPrefix: '' });
    expect(parseTimeseriesConfig({ INDEX_PREFIX: 'acme', ELASTICSEARCH_PORT: '9201' })).toEqual({ backend: 'embedded', indexPrefix: 'acme' });
  });

  it('selects Elasticsearch by URL, taking inline credentials out of it', () => {
    expect(parseTimeseriesConfig({ ELASTICSEARCH_URL: 'https://elastic:s%40cret@es.internal:9243/', INDEX_PREFIX: 'prod' })).toEqual({
      backend: 'elasticsearch',
      indexPrefix: 'prod',
      node: 'https://es.internal:9243',
      username: 'elastic',
      password: 's@cret',
      requestTimeoutMs: 10_000,
      implementation: 'auto',
    });
  });

  it("reads DataHub's host, port, SSL, credentials, timeout and implementation variables", () => {
    expect(
      parseTimeseriesConfig({
        ELASTICSEARCH_HOST: 'elasticsearch',
        ELASTICSEARCH_PORT: '9200',
        ELASTICSEARCH_USE_SSL: 'true',
        ELASTICSEARCH_USERNAME: 'datahub',
        ELASTICSEARCH_PASSWORD: 'pw',
        ELASTICSEARCH_TIMEOUT_MS: '2500',
        ELASTICSEARCH_IMPLEMENTATION: 'OpenSearch',
      }),
    ).toEqual({
      backend: 'elasticsearch',
      indexPrefix: '',
      node: 'https://elasticsearch:9200',
      username: 'datahub',
      password: 'pw',
      requestTimeoutMs: 2500,
      implementation: 'opensearch',
    });
    expect(parseTimeseriesConfig({ ELASTICSEARCH_HOST: 'es' })).toMatchObject({ node: 'http://es:9200' });
  });

  it.each([
    [{ INDEX_PREFIX: 'Acme' }, "INDEX_PREFIX must be lower-case letters, digits, '-' or '_', starting with a letter or digit (got 'Acme')."],
    [{ ELASTICSEARCH_URL: 'not a url' }, "ELASTICSEARCH_URL is not a valid URL or host name (got 'not a url')."],
    [{ ELASTICSEARCH_URL: 'ftp://es:21' }, "ELASTICSEARCH_URL must use http or https (got 'ftp')."],
    [{ ELASTICSEARCH_HOST: 'es', ELASTICSEARCH_PORT: 'http' }, "ELASTICSEARCH_PORT must be a port number (got 'http')."],
    [{ ELASTICSEARCH_HOST: 'es', ELASTICSEARCH_USE_SSL: 'yes' }, "ELASTICSEARCH_USE_SSL must be true or false (got 'yes')."],
    [{ ELASTICSEARCH_HOST: 'http://es:9200' }, "ELASTICSEARCH_HOST must be a host name without scheme or path (got 'http://es:9200'); use ELASTICSEARCH_URL for a URL."],
    [{ ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_USERNAME: 'u' }, 'ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD must be set together.'],
    [{ ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_TIMEOUT_MS: '0' }, "ELASTICSEARCH_TIMEOUT_MS must be an integer from 1 to 600000 (got '0')."],
    [{ ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_TIMEOUT_MS: '5s' }, "ELASTICSEARCH_TIMEOUT_MS must be an integer from 1 to 600000 (got '5s')."],
    [{ ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_IMPLEMENTATION: 'solr' }, "ELASTICSEARCH_IMPLEMENTATION must be one of auto, elasticsearch, elasticsearch8, elasticsearch9, opensearch (got 'solr')."],
  ])('throws one clear line for %j', (env, message) => {
    expect(() => parseTimeseriesConfig(env)).toThrow(new TimeseriesConfigError(message));
  });
});
