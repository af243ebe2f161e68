import { describe, expect, it } from 'vitest';
import { createRequestMetrics } from '../src/request-metrics';

// What Prometheus parses from /metrics for requests; the end-to-end scrape is in observability.test.ts.
describe('request metrics', () => {
  it('counts by status and writes cumulative buckets, +Inf, sum and count for each route and operation', () => {
    const metrics = createRequestMetrics();
    metrics.observe('/api/graphql', 'tag', 200, 0.0004);
    metrics.observe('/api/graphql', 'tag', 200, 0.003);
    metrics.observe('/api/graphql', 'tag', 400, 30);
    const text = metrics.render();
    const line = (prefix: string) => text.split('\n').find((l) => l.startsWith(prefix));
    expect(line('mds_http_requests_total{route="/api/graphql",operation="tag",status="200"}')).toMatch(/ 2$/);
    expect(line('mds_http_requests_total{route="/api/graphql",operation="tag",status="400"}')).toMatch(/ 1$/);
    const labels = 'route="/api/graphql",operation="tag"';
    expect(line(`mds_http_request_duration_seconds_bucket{le="0.0005",${labels}}`)).toMatch(/ 1$/);
    expect(line(`mds_http_request_duration_seconds_bucket{le="0.0025",${labels}}`)).toMatch(/ 1$/);
    expect(line(`mds_http_request_duration_seconds_bucket{le="0.005",${labels}}`)).toMatch(/ 2$/);
    expect(line(`mds_http_request_duration_seconds_bucket{le="10",${labels}}`)).toMatch(/ 2$/);
    expect(line(`mds_http_request_duration_seconds_bucket{le="+Inf",${labels}}`)).toMatch(/ 3$/);
    expect(Number(line(`mds_http_request_duration_seconds_sum{${labels}}`)!.split(' ')[1])).toBeCloseTo(30.0034, 6);
    expect(line(`mds_http_request_duration_seconds_count{${labels}}`)).toMatch(/ 3$/);
    expect(text).toMatch(/^# TYPE mds_http_requests_total counter$/m);
    expect(text).toMatch(/^# TYPE mds_http_request_duration_seconds histogram$/m);
  });

  it('escapes label values, and folds names that are not identifiers, or past 200 of them, into "other"', () => {
    const metrics = createRequestMetrics();
    metrics.observe('/a"b\\c', '', 404, 0.001);
    metrics.observe('/api/graphql', 'not an identifier', 200, 0.001);
    for (let i = 0; i < 205; i++) metrics.observe('/api/graphql', `op${i}`, 200, 0.001);
    const text = metrics.render();
    expect(text).toContain('mds_http_requests_total{route="/a\\"b\\\\c",operation="",status="404"} 1\n');
    expect(text).toContain('mds_http_requests_total{route="/api/graphql",operation="op199",status="200"} 1\n');
    expect(text).not.toContain('operation="op200"');
    // The name that is not an identifier and the five past the cap.
    expect(text).toContain('mds_http_requests_total{route="/api/graphql",operation="other",status="200"} 6\n');
  });
});
