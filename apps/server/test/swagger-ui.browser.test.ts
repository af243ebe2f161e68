import type { Browser } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, loopbackOnly } from './support/browser';
import { startMds, type Mds } from './support/mds';

// Swagger UI over the generated OpenAPI document, in a real browser that may reach nothing but the server (offline).
// Written where test output goes; docs/swagger-ui.png is a copy of one, committed.
const SCREENSHOT = fileURLToPath(new URL('../test-output/swagger-ui.png', import.meta.url));
const ORDERS = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
let mds: Mds;
let browser: Browser;

beforeAll(async () => {
  mds = await startMds();
  const proposal = {
    entityType: 'dataset',
    entityUrn: ORDERS,
    changeType: 'UPSERT',
    aspectName: 'datasetProperties',
    aspect: { contentType: 'application/json', value: JSON.stringify({ name: 'orders', description: 'One row per order' }) },
  };
  expect((await mds.post('/aspects?action=ingestProposal', { proposal })).status).toBe(200);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await mds?.close();
});

it('lists the entity paths and answers "Try it out" on a GET with the token given on the page', { timeout: 120_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const elsewhere = await loopbackOnly(page);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) problems.push(message.text());
  });

  await page.goto(`${mds.url}/openapi/swagger-ui/index.html`);
  await page.locator('input[name=token]').fill(mds.rootToken);
  await page.locator('#mds-token button').click();

  // The document loaded with the token: the dataset operations are listed under their tag.
  await page.locator('.operation-filter-input').fill('Dataset Entity');
  // Swagger UI re-renders once the filter applies (61 entity types' tags to hide): click the tag after that.
  await expect.poll(() => page.locator('h3.opblock-tag').count(), { timeout: 60_000 }).toBe(1);
  await page.locator('h3.opblock-tag', { hasText: 'Dataset Entity' }).first().click();
  const get = page.locator('.opblock-get', { has: page.locator('[data-path="/openapi/v3/entity/dataset/{urn}"]') });
  await get.locator('.opblock-summary').first().click();
  await get.locator('.try-out__btn').click();
  await get.locator('tr[data-param-name="urn"] input').fill(ORDERS);
  await get.locator('.execute').click();

  const status = get.locator('.live-responses-table tbody .response-col_status').first();
  await expect.poll(() => status.innerText(), { timeout: 30_000 }).toContain('200');
  expect(await get.locator('.live-responses-table tbody .response-col_description').first().innerText()).toContain('One row per order');
  // The curl line shows the token: masked.
  await page.screenshot({ path: SCREENSHOT, mask: [get.locator('.curl-command')] });

  expect(elsewhere).toEqual([]);
  expect(problems).toEqual([]);
});

it('sends nothing without a token, and the document itself still needs one', async () => {
  expect((await fetch(`${mds.url}/openapi/swagger-ui/index.html`)).status).toBe(200);
  expect((await fetch(`${mds.url}/openapi/v3/api-docs`)).status).toBe(401);
});
