import { describe, expect, it } from 'vitest';
import { parseTimeseriesConfig, TimeseriesConfigError } from '../src/index.ts';

describe('parseTimeseriesConfig', () => {
  it('defaults to the embedded store without prefix', () => {
    expect(parseTimeseriesConfig({})).toEqual({ backend: 'embedded', indexPrefix: '' });
    expect(parseTimeseriesConfig({ INDEX_PREFIX: 'acme', ELASTICSEARCH_PORT: '9201' })).toEqual({ backend: 'embedded', indexPrefix: 'acme' });
  });

  it('selects the cluster @mds/elasticsearch reads from the environment, under the index prefix', () => {
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

  it('throws one clear line for a bad INDEX_PREFIX', () => {
    expect(() => parseTimeseriesConfig({ INDEX_PREFIX: 'Acme' })).toThrow(
      new TimeseriesConfigError("INDEX_PREFIX must be lower-case letters, digits, '-' or '_', starting with a letter or digit (got 'Acme')."),
    );
  });
});
