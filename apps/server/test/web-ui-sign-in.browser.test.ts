import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { launchChromium, loopbackOnly } from './support/browser';
import { startMds, type Mds } from './support/mds';

// A page of our own, laid out as DataHub's web UI build is and served from MDS_WEB_UI_DIR, signing in in a real
// browser (Debian's Chromium) the way DataHub's UI does (its LogIn.tsx: a JSON POST to /logIn, then its GraphQL calls
// to /api/v2/graphql carried by the session cookie; /logOut to sign out) — under the CSP mds serves the UI with.
const PAGE = `<!DOCTYPE html><html><head><script type="module" src="/assets/index-Sg7nIn01.js"></script></head>
<body><form id="login"><input id="username" name="username"><input id="password" name="password" type="password">
<button type="submit">Log in</button></form><output id="status"></output><output id="me"></output></body></html>`;
const SCRIPT = `
const status = document.getElementById('status');
const me = document.getElementById('me');
async function whoAmI() {
  const res = await fetch('/api/v2/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: '{ me { corpUser { urn username } } }' }),
  });
  me.textContent = res.ok ? (await res.json()).data.me.corpUser.urn : 'HTTP ' + res.status;
}
document.getElementById('login').addEventListener('submit', async (event) => {
  event.preventDefault();
  const res = await fetch('/logIn', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: document.getElementById('username').value, password: document.getElementById('password').value }),
  });
  status.textContent = res.ok ? 'signed in' : (await res.json()).message;
  if (res.ok) await whoAmI();
});
if (location.pathname === '/after-logout') whoAmI();
`;

// A hang bound for a browser on a loaded machine; the polls below wait on the page, never on a clock.
vi.setConfig({ testTimeout: 300_000 });

const PASSWORD = 'correct horse battery staple';
let dir: string;
let mds: Mds;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mds-web-ui-sign-in-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), PAGE);
  writeFileSync(join(dir, 'assets/index-Sg7nIn01.js'), SCRIPT);
  mds = await startMds({ MDS_WEB_UI_DIR: dir });
  await mds.domains.auth.service.credentials.setPassword('urn:li:corpuser:datahub', PASSWORD);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await mds?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh browser context (its own cookies) on the UI's sign-in route, with what broke or reached elsewhere. */
async function openLogin(): Promise<{ page: Page; problems: string[]; elsewhere: string[] }> {
  const page = await (await browser.newContext()).newPage();
  const elsewhere = await loopbackOnly(page);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused/i.test(message.text())) problems.push(message.text());
  });
  await page.goto(`${mds.url}/login?redirect_uri=%2F`);
  return { page, problems, elsewhere };
}

async function logIn(page: Page, username: string, password: string) {
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

it('signs in through /logIn, calls GraphQL with the session cookie the page cannot read, and signs out through /logOut', async () => {
  const { page, problems, elsewhere } = await openLogin();
  await logIn(page, 'datahub', PASSWORD);
  await expect.poll(() => page.locator('#me').textContent(), { timeout: 120_000 }).toBe('urn:li:corpuser:datahub');
  expect(await page.locator('#status').textContent()).toBe('signed in');
  // The actor cookie is the page's to read (DataHub's UI reads it); the session token is HttpOnly.
  const cookies = await page.evaluate(() => document.cookie);
  expect(cookies).toContain('actor=urn:li:corpuser:datahub');
  expect(cookies).not.toContain('PLAY_SESSION');
  expect((await page.context().cookies()).map((c) => [c.name, c.httpOnly]).sort()).toEqual([
    ['PLAY_SESSION', true],
    ['actor', false],
  ]);

  // Signing out revokes the session and lands on the sign-in page; the page's next call is refused.
  await page.goto(`${mds.url}/logOut`);
  expect(new URL(page.url()).pathname).toBe('/login');
  expect((await page.context().cookies()).map((c) => c.name)).toEqual([]);
  await page.goto(`${mds.url}/after-logout`);
  await expect.poll(() => page.locator('#me').textContent(), { timeout: 120_000 }).toBe('HTTP 401');
  expect(problems).toEqual([]);
  expect(elsewhere).toEqual([]);
});

it("answers a wrong password with DataHub's text and sets no cookie", async () => {
  const { page, problems } = await openLogin();
  await logIn(page, 'datahub', 'wrong password');
  await expect.poll(() => page.locator('#status').textContent(), { timeout: 120_000 }).toBe('Invalid Credentials');
  expect(await page.context().cookies()).toEqual([]);
  expect(problems).toEqual([]);
});
