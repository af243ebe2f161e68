import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { createRequestMetrics } from './request-metrics';

/** Where the domain gauges come from (the time-series store); scraped on demand, never on the request path. */
export interface MetricSources {
  indexSizes(): Promise<{ indexName: string; sizeBytes: number }[]>;
  taskCounts(): Promise<Record<'running' | 'completed' | 'failed', number>>;
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Prometheus metrics: requests by route, operation and status, latency histograms, index sizes, truncation tasks. */
export function createMetrics(sources?: MetricSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'mds_' });
  const requests = createRequestMetrics();
  if (sources) {
    new Gauge({
      name: 'mds_timeseries_index_size_bytes',
      help: 'Bytes each time-series index occupies (what getIndexSizes reports)',
      labelNames: ['index'],
      registers: [registry],
      async collect() {
        this.reset();
        // A cluster that is down must not fail the whole scrape: the gauge is simply absent then.
        for (const { indexName, sizeBytes } of await sources.indexSizes().catch(() => [])) this.set({ index: indexName }, sizeBytes);
      },
    });
    new Gauge({
      name: 'mds_truncation_tasks',
      help: 'Time-series truncation tasks by state',
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        this.reset();
        const counts = await sources.taskCounts().catch(() => undefined);
        for (const [state, n] of Object.entries(counts ?? {})) this.set({ state }, n);
      },
    });
  }

  return {
    contentType: registry.contentType,
    render: async () => (await registry.metrics()) + requests.render(),
    observe: requests.observe,
  };
}
