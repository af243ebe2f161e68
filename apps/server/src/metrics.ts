import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Where the domain gauges come from (the time-series store); scraped on demand, never on the request path. */
export interface MetricSources {
  indexSizes(): Promise<{ indexName: string; sizeBytes: number }[]>;
  taskCounts(): Promise<Record<'running' | 'completed' | 'failed', number>>;
}

/** Operation labels come from clients (GraphQL operation names): cap how many distinct ones become series. */
const MAX_OPERATION_LABELS = 200;

export type Metrics = ReturnType<typeof createMetrics>;

/** Prometheus metrics: requests by route, operation and status, latency histograms, index sizes, truncation tasks. */
export function createMetrics(sources?: MetricSources) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'mds_' });
  const requests = new Counter({
    name: 'mds_http_requests_total',
    help: 'HTTP requests by route, GraphQL operation or Rest.li action, and status',
    labelNames: ['route', 'operation', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'mds_http_request_duration_seconds',
    help: 'Time from request to response, by route and operation',
    labelNames: ['route', 'operation'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [registry],
  });
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

  const operations = new Set<string>();
  const operationLabel = (operation: string) => {
    if (operations.has(operation) || operation === '') return operation;
    if (operations.size >= MAX_OPERATION_LABELS || !/^[A-Za-z_][\w]{0,63}$/.test(operation)) return 'other';
    operations.add(operation);
    return operation;
  };

  // prom-client validates and hashes a label object on every call; resolve each label set to its series once.
  // Keyed by the capped labels, so the map is as bounded as the series themselves.
  const series = new Map<string, { count: Counter.Internal; time: Histogram.Internal<'route' | 'operation'> }>();
  const seriesOf = (route: string, rawOperation: string, status: number) => {
    const operation = operationLabel(rawOperation);
    const key = `${route} ${operation} ${status}`;
    let found = series.get(key);
    if (!found) {
      const labels = { route, operation };
      found = { count: requests.labels({ ...labels, status: String(status) }), time: latency.labels(labels) };
      series.set(key, found);
    }
    return found;
  };

  return {
    contentType: registry.contentType,
    render: () => registry.metrics(),
    observe(route: string, operation: string, status: number, seconds: number) {
      const { count, time } = seriesOf(route, operation, status);
      count.inc();
      time.observe(seconds);
    },
  };
}
