import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../../../../scripts/test-env.mjs';

/** Debian's Chromium, headless, as provisioned by the test command (scripts/test-env.mjs) and found the same way. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium() ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
  });
}

/** Lets the page reach loopback only (the pages must work offline); answers the list of what it tried elsewhere. */
export async function loopbackOnly(page: Page): Promise<string[]> {
  const elsewhere: string[] = [];
  await page.route('**/*', (route) => {
    const { hostname } = new URL(route.request().url());
    if (hostname === '127.0.0.1' || hostname === 'localhost') return route.continue();
    elsewhere.push(route.request().url());
    return route.abort();
  });
  return elsewhere;
}
