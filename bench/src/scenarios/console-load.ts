import { chromium } from 'playwright-core';
import { findChromium } from '../../../scripts/test-env.mjs';
import type { Scenario } from '../context.ts';
import { median } from '../load.ts';

const LOADS = 5;
const FIRST_LOAD_KB_TARGET = 200;
const INTERACTIVE_MS_TARGET = 1_000;

/**
 * The operations console's first load in Debian's Chromium (headless, every host but loopback blocked, a fresh
 * browser context each time, so nothing is cached): the bytes it transfers, compressed as served, and when it is
 * interactive (DOMContentLoaded: the sign-in form is rendered by then).
 */
export const consoleLoad: Scenario = {
  name: 'consoleLoad',
  title: 'Console first load',
  async run(context) {
    const browser = await chromium.launch({
      executablePath: findChromium() ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
    });
    const loads: { bytes: number; interactiveMs: number }[] = [];
    try {
      for (let i = 0; i < LOADS; i++) {
        const page = await (await browser.newContext()).newPage();
        const origin = new URL(context.target.url).origin;
        await page.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
        const responses: Promise<number>[] = [];
        page.on('requestfinished', (request) => responses.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize)));
        await page.goto(`${context.target.url}/console`, { waitUntil: 'load' });
        // Evaluated in the page (text, so this file needs no DOM types).
        const interactiveMs = Number(await page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"));
        loads.push({ bytes: (await Promise.all(responses)).reduce((a, b) => a + b, 0), interactiveMs });
        await page.context().close();
      }
    } finally {
      await browser.close();
    }
    const kb = Math.round(median(loads.map((l) => l.bytes)) / 102.4) / 10;
    const interactive = Math.round(median(loads.map((l) => l.interactiveMs)));
    return {
      rows: [
        {
          label: 'console first load, transferred (gzip as served)',
          value: kb,
          unit: 'KB',
          note: `median of ${LOADS} uncached loads`,
          target: { text: `< ${FIRST_LOAD_KB_TARGET} KB`, met: kb < FIRST_LOAD_KB_TARGET },
        },
        {
          label: 'console interactive (DOMContentLoaded, loopback)',
          value: interactive,
          unit: 'ms p50',
          note: `median of ${LOADS} uncached loads`,
          target: { text: `< ${INTERACTIVE_MS_TARGET} ms`, met: interactive < INTERACTIVE_MS_TARGET },
        },
      ],
      details: { loads },
    };
  },
};
