import { describe, expect, it } from 'vitest';
import { ElasticsearchConfigError, parseElasticsearchConnection } from '../src/index.ts';

describe('parseElasticsearchConnection', () => {
  it('is undefined without ELASTICSEARCH_URL or ELASTICSEARCH_HOST, whatever else is set', () => {
    expect(parseElasticsearchConnection({})).toBeUndefined();
    expect(parseElasticsearchConnection({ ELASTICSEARCH_PORT: '9201', ELASTICSEARCH_URL: '  ' })).toBeUndefined();
  });

  it('takes inline credentials out of the URL', () => {
    expect(parseElasticsearchConnection({ ELASTICSEARCH_URL: 'https://elastic:s%40cret@es.internal:9243/' })).toEqual({
      node: 'https://es.internal:9243',
      username: 'elastic',
      password: 's@cret',
      requestTimeoutMs: 10_000,
      implementation: 'auto',
    });
  });

  it("reads DataHub's host, port, SSL, credentials, timeout and implementation variables", () => {
    expect(
      parseElasticsearchConnection({
        ELASTICSEARCH_HOST: 'elasticsearch',
        ELASTICSEARCH_PORT: '9200',
        ELASTICSEARCH_USE_SSL: 'true',
        ELASTICSEARCH_USERNAME: 'datahub',
        ELASTICSEARCH_PASSWORD: 'pw',
        ELASTICSEARCH_TIMEOUT_MS: '2500',
        ELASTICSEARCH_IMPLEMENTATION: 'OpenSearch',
      }),
    ).toEqual({
      node: 'https://elasticsearch:9200',
      username: 'datahub',
      password: 'pw',
      requestTimeoutMs: 2500,
      implementation: 'opensearch',
    });
    expect(parseElasticsearchConnection({ ELASTICSEARCH_HOST: 'es' })).toMatchObject({ node: 'http://es:9200' });
  });

  it.each([
    [{ ELASTICSEARCH_URL: 'not a url' }, "ELASTICSEARCH_URL is not a valid URL or host name (got 'not a url')."],
    [{ ELASTICSEARCH_URL: 'ftp://es:21' }, "ELASTICSEARCH_URL must use http or https (got 'ftp')."],
    [{ ELASTICSEARCH_HOST: 'es', ELASTICSEARCH_PORT: 'http' }, "ELASTICSEARCH_PORT must be a port number (got 'http')."],
    [{ ELASTICSEARCH_HOST: 'es', ELASTICSEARCH_USE_SSL: 'yes' }, "ELASTICSEARCH_USE_SSL must be true or false (got 'yes')."],
    [
      { ELASTICSEARCH_HOST: 'http://es:9200' },
      "ELASTICSEARCH_HOST must be a host name without scheme or path (got 'http://es:9200'); use ELASTICSEARCH_URL for a URL.",
    ],
    [
      { ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_USERNAME: 'u' },
      'ELASTICSEARCH_USERNAME and ELASTICSEARCH_PASSWORD must be set together.',
    ],
    [
      { ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_TIMEOUT_MS: '0' },
      "ELASTICSEARCH_TIMEOUT_MS must be an integer from 1 to 600000 (got '0').",
    ],
    [
      { ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_TIMEOUT_MS: '5s' },
      "ELASTICSEARCH_TIMEOUT_MS must be an integer from 1 to 600000 (got '5s').",
    ],
    [
      { ELASTICSEARCH_URL: 'http://es:9200', ELASTICSEARCH_IMPLEMENTATION: 'solr' },
      "ELASTICSEARCH_IMPLEMENTATION must be one of auto, elasticsearch, elasticsearch8, elasticsearch9, opensearch (got 'solr').",
    ],
  ])('throws one clear line for %j', (env, message) => {
    expect(() => parseElasticsearchConnection(env)).toThrow(new ElasticsearchConfigError(message));
  });
});
