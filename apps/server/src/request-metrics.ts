/** Operation labels come from clients (GraphQL operation names): cap how many distinct ones become series. */
const MAX_OPERATION_LABELS = 200;
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

const REQUESTS = {
  name: 'mds_http_requests_total',
  help: 'HTTP requests by route, GraphQL operation or Rest.li action, and status',
};
const LATENCY = {
  name: 'mds_http_request_duration_seconds',
  help: 'Time from request to response, by route and operation',
};

/** The series of one route and operation: requests by status, and a latency histogram (per bucket, not cumulative). */
interface Series {
  labels: string;
  byStatus: Map<number, number>;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * Request counts and latencies, kept as plain numbers and written out in Prometheus' text format at scrape time.
 * prom-client validates and hashes a label object on every observation, which cost more than the rest of a
 * cached tag read's bookkeeping; here an observation is a few map lookups and additions.
 */
export function createRequestMetrics() {
  const routes = new Map<string, Map<string, Series>>();
  const operations = new Set<string>();

  const operationLabel = (operation: string) => {
    if (operations.has(operation) || operation === '') return operation;
    if (operations.size >= MAX_OPERATION_LABELS || !/^[A-Za-z_][\w]{0,63}$/.test(operation)) return 'other';
    operations.add(operation);
    return operation;
  };

  // Routes are the host's own paths (or 'unmatched') and operations are capped: both maps stay bounded.
  const seriesOf = (route: string, rawOperation: string): Series => {
    const operation = operationLabel(rawOperation);
    let byOperation = routes.get(route);
    if (!byOperation) routes.set(route, (byOperation = new Map()));
    let series = byOperation.get(operation);
    if (!series) {
      series = {
        labels: `route="${escape(route)}",operation="${escape(operation)}"`,
        byStatus: new Map(),
        buckets: new Float64Array(LATENCY_BUCKETS.length),
        sum: 0,
        count: 0,
      };
      byOperation.set(operation, series);
    }
    return series;
  };

  return {
    observe(route: string, operation: string, status: number, seconds: number): void {
      const series = seriesOf(route, operation);
      series.byStatus.set(status, (series.byStatus.get(status) ?? 0) + 1);
      series.count++;
      series.sum += seconds;
      // A loop, not findIndex: no closure allocated per request.
      for (let bucket = 0; bucket < LATENCY_BUCKETS.length; bucket++) {
        if (seconds <= LATENCY_BUCKETS[bucket]!) {
          series.buckets[bucket]!++;
          break;
        }
      }
    },

    /** Both metrics in the Prometheus text format (0.0.4), each series once. */
    render(): string {
      const all = [...routes.values()].flatMap((byOperation) => [...byOperation.values()]);
      const lines = [`# HELP ${REQUESTS.name} ${REQUESTS.help}`, `# TYPE ${REQUESTS.name} counter`];
      for (const series of all) {
        for (const [status, n] of series.byStatus) lines.push(`${REQUESTS.name}{${series.labels},status="${status}"} ${n}`);
      }
      lines.push(`# HELP ${LATENCY.name} ${LATENCY.help}`, `# TYPE ${LATENCY.name} histogram`);
      for (const series of all) {
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((bound, i) => {
          cumulative += series.buckets[i]!;
          lines.push(`${LATENCY.name}_bucket{le="${bound}",${series.labels}} ${cumulative}`);
        });
        lines.push(
          `${LATENCY.name}_bucket{le="+Inf",${series.labels}} ${series.count}`,
          `${LATENCY.name}_sum{${series.labels}} ${series.sum}`,
          `${LATENCY.name}_count{${series.labels}} ${series.count}`,
        );
      }
      return `${lines.join('\n')}\n`;
    },
  };
}

/** A label value as the text format wants it: backslash, double quote and newline escaped. */
function escape(value: string): string {
  return value.replace(/[\\"\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}
