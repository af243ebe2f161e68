import type { ApiModule } from '@mds/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { startServer, type RunningServer } from '../src/server';

// The host owns no domain metric and no domain readiness: it serves what each module contributes.
const widgets: ApiModule = {
  name: 'widgets',
  metrics: [
    {
      name: 'mds_widgets_total',
      help: 'Widgets by colour',
      labelNames: ['colour'],
      collect: async () => [
        { labels: { colour: 'red' }, value: 3 },
        { labels: { colour: 'blue' }, value: 5 },
      ],
    },
  ],
  ready: async () => {},
};
const broken: ApiModule = {
  name: 'gadgets',
  metrics: [
    {
      name: 'mds_gadgets_total',
      help: 'Gadgets, from a backend that is down',
      labelNames: ['shelf'],
      collect: async () => {
        throw new Error('backend down');
      },
    },
  ],
  ready: async () => {
    throw new Error('gadgets: backend asleep');
  },
};

const start = (modules: ApiModule[]) =>
  startServer(loadConfig({ PORT: '0', METRICS_PUBLIC: 'true' }), createLogger('silent'), { modules, authenticate: async () => null });

let healthy: RunningServer;
let sick: RunningServer;
beforeAll(async () => {
  [healthy, sick] = await Promise.all([start([widgets]), start([widgets, broken])]);
});
afterAll(async () => {
  await Promise.all([healthy?.close(), sick?.close()]);
});

describe("a module's gauges on /metrics", () => {
  it("shows each module's samples beside the host's request metrics", async () => {
    const text = await (await fetch(`${healthy.url}/metrics`)).text();
    expect(text).toMatch(/^mds_widgets_total\{colour="red"\} 3$/m);
    expect(text).toMatch(/^mds_widgets_total\{colour="blue"\} 5$/m);
    expect(text).toMatch(/^# HELP mds_widgets_total Widgets by colour$/m);
    expect(text).toMatch(/^# HELP mds_http_requests_total /m);
  });

  it('leaves a gauge whose backend fails empty, and the scrape whole', async () => {
    const res = await fetch(`${sick.url}/metrics`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text).toMatch(/^# HELP mds_gadgets_total /m);
    expect(text).not.toMatch(/^mds_gadgets_total\b/m);
    expect(text).toMatch(/^mds_widgets_total\{colour="red"\} 3$/m);
  });
});

describe("a module's readiness on /health", () => {
  it('is 200 when every module is ready', async () => {
    const res = await fetch(`${healthy.url}/health`);
    expect([res.status, await res.json()]).toEqual([200, { status: 'ok' }]);
  });

  it("is 503 with the failing module's reason", async () => {
    const res = await fetch(`${sick.url}/health`);
    expect([res.status, await res.json()]).toEqual([503, { status: 'unavailable', reason: 'gadgets: backend asleep' }]);
  });
});
