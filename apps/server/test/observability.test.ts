import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startServer, type Composition } from '../src/server';
import { sleep } from './support/live';
import { startMds, type Mds } from './support/mds';
import { pollTask } from './support/timeseries-data';

// What an operator's Prometheus and load balancer see.
let mds: Mds;
beforeAll(async () => {
  mds = await startMds();
});
afterAll(() => mds?.close());

const scrape = async (instance: Mds, token: string | null = instance.rootToken) => {
  const res = await fetch(`${instance.url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, text: await res.text() };
};

describe('GET /metrics', () => {
  it('is protected like the API', async () => {
    expect((await scrape(mds, null)).status).toBe(401);
  });

  it('counts requests by route, operation and status, with latency histograms', async () => {
    await mds.graphql('query whoAmI { me { corpUser { urn } } }');
    await mds.post('/gms/operations?action=getIndexSizes', {});
    await mds.post('/gms/operations?action=getIndexSizes', {}, null);
    await fetch(`${mds.url}/no/such/path`);
    await fetch(`${mds.url}/api/graphql`, { method: 'PUT' });
    const { status, text } = await scrape(mds);
    expect(status).toBe(200);
    expect(text).toMatch(/^mds_http_requests_total\{route="\/api\/graphql",operation="whoAmI",status="200"\} 1$/m);
    expect(text).toMatch(/^mds_http_requests_total\{route="\/gms\/operations",operation="getIndexSizes",status="200"\} 1$/m);
    expect(text).toMatch(/^mds_http_requests_total\{route="\/gms\/operations",operation="",status="401"\} 1$/m);
    // Answers the router gives itself are counted too, unknown paths under one route label.
    expect(text).toMatch(/^mds_http_requests_total\{route="unmatched",operation="",status="404"\} 1$/m);
    expect(text).toMatch(/^mds_http_requests_total\{route="\/api\/graphql",operation="",status="405"\} 1$/m);
    // The latency histogram holds the request (in which bucket depends on how busy the machine is).
    expect(text).toMatch(/^mds_http_request_duration_seconds_bucket\{le="\+Inf",route="\/api\/graphql",operation="whoAmI"\} 1$/m);
    expect(text).toMatch(/^mds_http_request_duration_seconds_count\{route="\/api\/graphql",operation="whoAmI"\} 1$/m);
    expect(text).toMatch(/^mds_process_resident_memory_bytes \d+/m);
  });

  it('counts a client that leaves in the middle of its body as a 400, not as a server error', async () => {
    const body = JSON.stringify({ proposals: [] });
    const req = request(`${mds.url}/aspects?action=ingestProposalBatch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mds.rootToken}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    req.on('error', () => {}); // destroyed below
    req.write(body.slice(0, 5));
    await sleep(100); // the server is reading the body
    req.destroy();
    await sleep(100); // and has seen the client go
    const { text } = await scrape(mds);
    expect(text).toMatch(/^mds_http_requests_total\{route="\/aspects",operation="ingestProposalBatch",status="400"\} 1$/m);
    expect(text).not.toMatch(/status="5\d\d"/);
  });

  it('reports time-series index sizes and truncation tasks as gauges', async () => {
    const proposals = Array.from({ length: 50 }, (_, i) => ({
      entityType: 'chart',
      entityUrn: 'urn:li:chart:(looker,c1)',
      changeType: 'UPSERT',
      aspectName: 'chartUsageStatistics',
      aspect: { contentType: 'application/json', value: JSON.stringify({ timestampMillis: 1_700_000_000_000 + i, viewsCount: i }) },
    }));
    await mds.post('/aspects?action=ingestProposalBatch', { proposals });
    const task = (
      await mds.post('/gms/operations?action=truncateTimeseriesAspect', {
        entityType: 'chart',
        aspect: 'chartUsageStatistics',
        endTimeMillis: 1_700_000_000_010,
        dryRun: false,
      })
    ).body.value;
    await pollTask(mds, task, (s) => s.completed);
    const { text } = await scrape(mds);
    expect(text).toMatch(/^mds_timeseries_index_size_bytes\{index="chart_chartusagestatisticsaspect_v1"\} [1-9]\d*$/m);
    expect(text).toMatch(/^mds_truncation_tasks\{state="completed"\} 1$/m);
    expect(text).toMatch(/^mds_truncation_tasks\{state="running"\} 0$/m);
  });

  it('is public with METRICS_PUBLIC=true', async () => {
    const open = await startMds({ METRICS_PUBLIC: 'true' });
    try {
      expect((await scrape(open, null)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

describe('GET /health (readiness)', () => {
  it('is 200 when every backend can serve', async () => {
    const res = await fetch(`${mds.url}/health`);
    expect([res.status, await res.json()]).toEqual([200, { status: 'ok' }]);
  });

  it('is 503 with a reason while the databases open, then 200', async () => {
    let finish!: (c: Composition) => void;
    const pending = new Promise<Composition>((resolve) => (finish = resolve));
    let url!: (u: string) => void;
    const listening = new Promise<string>((resolve) => (url = resolve));
    const starting = startServer(loadConfig({ PORT: '0' }), createLogger('silent'), () => pending, { listening: url });
    const early = await fetch(`${await listening}/health`);
    expect([early.status, await early.json()]).toEqual([503, { status: 'starting', reason: 'opening databases and applying migrations' }]);
    expect((await fetch(`${await listening}/api/graphql`, { method: 'POST' })).status).toBe(503);
    finish({ modules: [], authenticate: async () => null });
    const running = await starting;
    expect((await fetch(`${running.url}/health`)).status).toBe(200);
    await running.close();
  });

  it('is 503 naming the cluster when Elasticsearch is unreachable', async () => {
    const down = await startMds({ ELASTICSEARCH_URL: 'http://127.0.0.1:9', ELASTICSEARCH_TIMEOUT_MS: '300' });
    try {
      const res = await fetch(`${down.url}/health`);
      const body = await res.json();
      expect(res.status).toBe(503);
      expect(body).toEqual({ status: 'unavailable', reason: expect.stringMatching(/Elasticsearch/) });
    } finally {
      await down.close();
    }
  });
});
