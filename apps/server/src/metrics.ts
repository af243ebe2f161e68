import type { ModuleGauge } from '@mds/schema';
import { Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { createRequestMetrics } from './request-metrics';

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Prometheus metrics: the process's own and requests by route, operation and status with latency histograms (the
 * host's), then every gauge the modules contribute (index sizes and truncation tasks come from @mds/timeseries).
 */
export function createMetrics(gauges: readonly ModuleGauge[] = []) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'mds_' });
  const requests = createRequestMetrics();
  for (const gauge of gauges) {
    new Gauge({
      name: gauge.name,
      help: gauge.help,
      labelNames: [...gauge.labelNames],
      registers: [registry],
      async collect() {
        this.reset();
        // A backend that is down must not fail the whole scrape: the gauge is simply empty then.
        for (const { labels, value } of await gauge.collect().catch(() => [])) this.set(labels, value);
      },
    });
  }

  return {
    contentType: registry.contentType,
    render: async () => (await registry.metrics()) + requests.render(),
    observe: requests.observe,
  };
}
