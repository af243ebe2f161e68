import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Cluster, dialectOf } from '../src/index.ts';

const info = (number: string, distribution?: string) =>
  ({ version: { number, ...(distribution ? { distribution } : {}) } }) as unknown as Parameters<typeof dialectOf>[0];

describe('dialectOf', () => {
  it('tells Elasticsearch 8, 9 and OpenSearch from their GET / answer, and refuses older clusters', () => {
    expect(dialectOf(info('9.1.0'))).toBe('elasticsearch9');
    expect(dialectOf(info('8.15.2'))).toBe('elasticsearch8');
    expect(dialectOf(info('2.17.0', 'opensearch'))).toBe('opensearch');
    expect(() => dialectOf(info('7.17.0'))).toThrow(
      'Elasticsearch 7.17.0 is not supported: mds needs Elasticsearch 8 or 9, or OpenSearch.',
    );
  });
});

describe('Cluster', () => {
  it('turns an unreachable cluster into a 503 naming the node and the operation', async () => {
    // A port that was free a moment ago: nothing listens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const node = `http://127.0.0.1:${port}`;
    const cluster = new Cluster({ config: { node, requestTimeoutMs: 2000, implementation: 'auto' } });
    try {
      await expect(cluster.run('index sizes', (client, options) => client.info({}, options))).rejects.toMatchObject({
        status: 503,
        message: expect.stringContaining(`Elasticsearch at ${node} is unreachable (index sizes)`),
      });
    } finally {
      await cluster.close();
    }
  });
});
