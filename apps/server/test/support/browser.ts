import { chromium, type Browser } from 'playwright-core';
import { findChromium } from '../../../../scripts/test-env.mjs';

/** Debian's Chromium, headless, as provisioned by the test command (scripts/test-env.mjs) and found the same way. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium() ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-quic', '--no-first-run'],
  });
}
