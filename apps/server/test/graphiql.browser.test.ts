import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from './support/browser';
import { startMds, type Mds } from './support/mds';

// A real browser (Debian's Chromium) against the real server: what a newcomer does in their first minute.
const OUTPUT = new URL('../test-output/', import.meta.url).pathname;
let mds: Mds;
let browser: Browser;

beforeAll(async () => {
  mds = await startMds();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await mds?.close();
});

/** An editor's visible text; Monaco renders spaces as U+00A0, so whitespace is normalised. */
const textOf = async (page: Page, selector: string) => (await page.locator(selector).innerText()).replace(/\s+/g, ' ');

/** Replaces the whole text of a GraphiQL (Monaco) editor as a paste would, without auto-closed brackets. */
async function replaceEditorText(page: Page, editor: string, text: string) {
  await page.locator(`${editor} .monaco-editor`).first().click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

it('runs `me` with a pasted token and shows the answer', { timeout: 90_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });
  await page.goto(`${mds.url}/api/graphiql`);
  await page.locator('.graphiql-execute-button').waitFor({ timeout: 60_000 });

  // The page opens with the token template in the headers editor and an example operation.
  const headersEditor = '.graphiql-editor-tool .graphiql-editor:not(.hidden)';
  await expect.poll(() => textOf(page, headersEditor)).toContain('Bearer <paste a token>');
  await expect.poll(() => textOf(page, '.graphiql-query-editor')).toContain('appConfig');

  await replaceEditorText(page, headersEditor, JSON.stringify({ Authorization: `Bearer ${mds.rootToken}` }));
  await replaceEditorText(
    page,
    '.graphiql-query-editor',
    'query me { me { corpUser { urn username } platformPrivileges { manageTokens } } }',
  );
  // GraphiQL re-derives the operation name after a debounce; running earlier would run the old name.
  await expect.poll(() => page.locator('.graphiql-tab-active').innerText()).toBe('me');
  await page.locator('.graphiql-execute-button').click();

  await expect.poll(() => textOf(page, '.result-window'), { timeout: 20_000 }).toContain('urn:li:corpuser:datahub');
  expect(await textOf(page, '.result-window')).toContain('"manageTokens": true');
  // The page's strict CSP (its own script hashes, this origin only) must not break any part of it.
  expect(cspViolations).toEqual([]);
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: `${OUTPUT}graphiql-me.png` });

  // Headers persist across a reload, so the token need not be pasted again. GraphiQL stores them after a debounce:
  // reloading before that (a busy machine) would test the timing, not the persistence.
  const stored = () => page.evaluate(() => Object.values(localStorage).join('\n'));
  await expect.poll(stored, { timeout: 10_000 }).toContain(mds.rootToken.slice(0, 20));
  await page.reload();
  await page.locator('.graphiql-execute-button').waitFor({ timeout: 60_000 });
  await expect.poll(() => textOf(page, headersEditor)).toContain(mds.rootToken.slice(0, 20));
});
