import { describe, expect, it } from 'vitest';
import { createTimeseries, parseTimeseriesConfig, TimeseriesConfigError } from '../src/index.ts';
import { tempDir } from './helpers.ts';

describe('parseTimeseriesConfig', () => {
  it('defaults to the embedded store without prefix', () => {
    expect(parseTimeseriesConfig({})).toEqual({ backend: 'embedded', indexPrefix: '' });
    expect(parseTimeseriesConfig({ INDEX_PREFIX: 'acme', ELASTICSEARCH_PORT: '9201' })).toEqual({
      backend: 'embedded',
      indexPrefix: 'acme',
    });
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

  it("selects the server's PostgreSQL database when there is one and no cluster; the embedded store on SQLite", () => {
    expect(parseTimeseriesConfig({ INDEX_PREFIX: 'acme' }, { database: 'postgres' })).toEqual({ backend: 'postgres', indexPrefix: 'acme' });
    expect(parseTimeseriesConfig({}, { database: 'sqlite' })).toEqual({ backend: 'embedded', indexPrefix: '' });
    expect(parseTimeseriesConfig({ ELASTICSEARCH_URL: 'http://es:9200' }, { database: 'postgres' })).toMatchObject({
      backend: 'elasticsearch',
      node: 'http://es:9200',
    });
    expect(parseTimeseriesConfig({ ELASTICSEARCH_HOST: 'es' }, { database: 'postgres' })).toMatchObject({ backend: 'elasticsearch' });
  });

  it('refuses the PostgreSQL backend without a PostgreSQL database to put it in', async () => {
    const { dir, remove } = tempDir();
    try {
      await expect(createTimeseries({ dataDir: dir, config: { backend: 'postgres', indexPrefix: '' } })).rejects.toThrow(
        TimeseriesConfigError,
      );
    } finally {
      remove();
    }
  });

  it('throws one clear line for a bad INDEX_PREFIX', () => {
    expect(() => parseTimeseriesConfig({ INDEX_PREFIX: 'Acme' })).toThrow(
      new TimeseriesConfigError(
        "INDEX_PREFIX must be lower-case letters, digits, '-' or '_', starting with a letter or digit (got 'Acme').",
      ),
    );
  });
});
