// Drives a build of DataHub's web UI, served by mds from MDS_WEB_UI_DIR, in headless Chromium as a user would, and
// reports per flow whether the UI showed the change after a reload and which GraphQL calls answered `errors` or which
// requests answered HTTP >= 400 (docs/webui.md says what it found). Opt-in, not part of `pnpm test`:
//
//   pnpm --filter @mds/server exec tsx scripts/webui-walkthrough.ts <datahub-web-react/dist> [--out <dir>] [--port <n>]
//     [--only <words of a flow's name>]...   (sign in runs always)
//
// It starts its own mds (`mds ingest` of DataHub's bootstrap sample into a fresh DATA_DIR, then `mds serve`, whose
// generated root password it reads from stderr), signs in as the root user, runs each flow, prints a table and saves a
// screenshot per flow in --out (default: a fresh temporary folder). The machine may be slow: every step waits on the
// page (a selector, a response, network idle) with a generous bound, never on a fixed sleep.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Page, Response } from 'playwright-core';
import { launchChromium, loopbackOnly } from '../test/support/browser';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string' }, port: { type: 'string', default: '9378' }, only: { type: 'string', multiple: true } },
});
const uiDir = positionals[0];
if (!uiDir || !existsSync(join(uiDir, 'index.html'))) {
  process.stderr.write('usage: webui-walkthrough.ts <datahub-web-react/dist> [--out <dir>] [--port <n>] [--only <words>]...\n');
  process.exit(2);
}
const out = resolve(values.out ?? mkdtempSync(join(tmpdir(), 'mds-webui-walkthrough-')));
mkdirSync(out, { recursive: true });
const here = fileURLToPath(new URL('.', import.meta.url));
const bin = join(here, '../bin/mds.js');
const bootstrap = join(here, '../../../packages/entities/test/fixtures/datahub/bootstrap_mce.json');
const dataDir = mkdtempSync(join(tmpdir(), 'mds-webui-walkthrough-data-'));
const base = `http://127.0.0.1:${values.port}`;
const env = { ...process.env, DATA_DIR: dataDir, PORT: values.port, MDS_WEB_UI_DIR: resolve(uiDir), LOG_LEVEL: 'warn' };

/** Runs `mds ingest` of the bootstrap sample to its end. */
function ingestSample(): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, 'ingest', bootstrap], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`mds ingest exited with ${code}`))));
  });
}

/** Starts `mds serve` and answers the root password it prints once it listens. */
function serve(): Promise<{ child: ChildProcess; password: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, 'serve'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const found = /signs in with this password \(shown only now\):\n\s+(\S+)/.exec(text);
      if (found) done({ child, password: found[1]! });
    });
    child.on('exit', (code) => fail(new Error(`mds serve exited with ${code}: ${text}`)));
  });
}

// Bounds for a loaded machine; each one is a hang bound, the steps wait on the page.
const STEP = 120_000;

interface Problem {
  what: string;
}
/** What went wrong on the network during the current flow: GraphQL `errors` by operation, HTTP statuses >= 400. */
let problems: Problem[] = [];
function watch(page: Page) {
  page.on('pageerror', (error) => problems.push({ what: `page error: ${error.message.slice(0, 160)}` }));
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.host !== new URL(base).host) return;
    const operation = (response.request().postDataJSON() as { operationName?: string } | null)?.operationName;
    if (response.status() >= 400) problems.push({ what: `HTTP ${response.status()} ${url.pathname}${operation ? ` (${operation})` : ''}` });
    if (url.pathname.endsWith('/graphql') && response.status() < 400)
      response
        .json()
        .then((body: { errors?: { message: string }[] }) => {
          for (const error of body.errors ?? []) problems.push({ what: `${operation ?? 'graphql'}: ${error.message.slice(0, 200)}` });
        })
        .catch(() => undefined);
  });
}

const idle = (page: Page) => page.waitForLoadState('networkidle', { timeout: STEP });
/** Waits for the page to have sent and received the named GraphQL operation (a mutation's answer). */
const answered = (page: Page, operationName: string) =>
  page.waitForResponse((r) => (r.request().postDataJSON() as { operationName?: string } | null)?.operationName === operationName, {
    timeout: STEP,
  });
/** The add (+) button of the asset sidebar's section headed `title` (Tags, Terms, Owners, Domain…). */
const sectionAdd = (page: Page, title: string) => {
  const plus = page.locator('[data-testid="AddRoundedIcon"]');
  return page
    .locator('div')
    .filter({ has: page.getByText(title, { exact: true }) })
    .filter({ has: plus })
    .last()
    .locator(plus)
    .first();
};

/** In the UI's add-tags/terms modal (its search box has the focus): searches `text` and picks the first option. */
async function pickInModal(page: Page, text: string) {
  await page.getByTestId('add-tag-term-from-modal-btn').waitFor({ timeout: STEP });
  await page.keyboard.type(text);
  await page.getByTestId('tag-term-option').filter({ hasText: text }).first().click();
}

const DATASET = 'urn:li:dataset:(urn:li:dataPlatform:hive,SampleHiveDataset,PROD)';
const KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';
const datasetPage = (urn: string, tab = '') => `${base}/dataset/${encodeURIComponent(urn)}${tab ? `/${tab}` : ''}`;

interface Flow {
  name: string;
  run(page: Page): Promise<void>;
}

const FLOWS: Flow[] = [
  {
    name: 'dataset page: columns, lineage, properties',
    async run(page) {
      await page.goto(datasetPage(DATASET, 'Schema'));
      await page.getByText('field_foo', { exact: true }).first().waitFor({ timeout: STEP });
      await page.getByText('Lineage', { exact: true }).first().click();
      await idle(page);
      await page.getByText('Properties', { exact: true }).first().click();
      await idle(page);
    },
  },
  {
    name: 'add a tag to a dataset',
    async run(page) {
      await page.goto(datasetPage(KAFKA));
      await idle(page);
      await page.getByText('No tags yet.').waitFor({ timeout: STEP });
      await sectionAdd(page, 'Tags').click();
      await pickInModal(page, 'Legacy');
      const done = answered(page, 'batchAddTags');
      await page.getByTestId('add-tag-term-from-modal-btn').click();
      await done;
      await page.reload();
      await page.getByText('Legacy', { exact: true }).first().waitFor({ timeout: STEP });
    },
  },
  {
    name: 'add a glossary term to a dataset',
    async run(page) {
      await page.goto(datasetPage(KAFKA));
      await idle(page);
      await sectionAdd(page, 'Terms').click();
      await pickInModal(page, 'AccountBalance');
      const done = answered(page, 'batchAddTerms');
      await page.getByTestId('add-tag-term-from-modal-btn').click();
      await done;
      await page.reload();
      await page.getByText('AccountBalance', { exact: true }).first().waitFor({ timeout: STEP });
    },
  },
  {
    name: 'create a domain',
    async run(page) {
      await page.goto(`${base}/domains`);
      await idle(page);
      await page.getByTestId('domains-new-domain-button').click();
      await page.getByTestId('create-domain-name').fill('Walkthrough Domain');
      const done = answered(page, 'createDomain');
      await page.getByTestId('create-domain-button').click();
      await done;
      await page.reload();
      await page.getByText('Walkthrough Domain').first().waitFor({ timeout: STEP });
    },
  },
  {
    name: 'set a domain on a dataset',
    async run(page) {
      await page.goto(datasetPage(KAFKA));
      await page.getByText('No domain yet.').waitFor({ timeout: STEP });
      await sectionAdd(page, 'Domain').click();
      await page.getByText('Search for Domains...').click();
      await page.keyboard.type('Walkthrough');
      await page.locator('.ant-select-item-option').filter({ hasText: 'Walkthrough Domain' }).first().click();
      const done = answered(page, 'setDomain');
      await page.locator('#setDomainButton').click();
      await done;
      await page.reload();
      await page.getByText('Walkthrough Domain').first().waitFor({ timeout: STEP });
    },
  },
  {
    name: 'create a tag',
    async run(page) {
      await page.goto(`${base}/tags`);
      await page.getByTestId('add-tag-button').click();
      await page.getByPlaceholder('Enter tag name').fill('WalkthroughTag');
      const done = answered(page, 'createTag');
      await page.getByTestId('create-tag-modal-create-button').click();
      await done;
      await page.reload();
      await page.getByText('WalkthroughTag').first().waitFor({ timeout: STEP });
    },
  },
  {
    name: 'create a glossary term group',
    async run(page) {
      await page.goto(`${base}/glossary`);
      await page.getByTestId('glossaryPageV2').waitFor({ timeout: STEP });
      await page.getByTestId('add-term-group-button-v2').click();
      await page.getByPlaceholder('Provide a name...').fill('Walkthrough Group');
      const done = answered(page, 'createGlossaryNode');
      await page.getByTestId('glossary-entity-modal-create-button').click();
      await done;
      await page.reload();
      await page.getByText('Walkthrough Group').first().waitFor({ timeout: STEP });
    },
  },
  {
    name: 'create an access token',
    async run(page) {
      await page.goto(`${base}/settings/tokens`);
      await page.getByText('Manage Access Tokens').first().waitFor({ timeout: STEP });
      await page.getByTestId('add-token-button').click();
      await page.getByText('Personal Token', { exact: true }).click();
      await page.getByTestId('create-access-token-name').fill('walkthrough token');
      const done = answered(page, 'createAccessToken');
      await page.getByTestId('create-access-token-button').click();
      await done;
      await page.keyboard.press('Escape');
      await page.reload();
      await page.getByText('walkthrough token').first().waitFor({ timeout: STEP });
    },
  },
];

const { child, password } = await ingestSample().then(serve);
const browser = await launchChromium();
const rows: { flow: string; result: string; problems: string[] }[] = [];
try {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  context.setDefaultTimeout(STEP);
  context.setDefaultNavigationTimeout(STEP);
  // As DataHub's own Cypress tests do: no onboarding tours, welcome modal or introduce page over the pages.
  await context.addInitScript(() => {
    for (const key of ['skipOnboardingTour', 'skipWelcomeModal', 'skipAcrylIntroducePage']) localStorage.setItem(key, 'true');
  });
  const page = await context.newPage();
  const elsewhere = await loopbackOnly(page);
  watch(page);

  const flows: Flow[] = [
    {
      name: 'sign in',
      async run() {
        await page.goto(`${base}/login`, { waitUntil: 'domcontentloaded' });
        await page.locator('#username').fill('datahub');
        await page.locator('#password').fill(password);
        await page.getByRole('button', { name: 'Sign In', exact: true }).click();
        await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: STEP });
        await idle(page);
      },
    },
    ...FLOWS.filter((flow) => !values.only || values.only.some((words) => flow.name.includes(words))),
  ];
  for (const [i, flow] of flows.entries()) {
    problems = [];
    let result = 'ok';
    try {
      await flow.run(page);
      await idle(page);
    } catch (error) {
      result = `not completed: ${(error as Error).message.split('\n')[0]!.slice(0, 160)}`;
    }
    await page.screenshot({ path: join(out, `${String(i).padStart(2, '0')}-${flow.name.replace(/[^a-z0-9]+/gi, '-')}.png`) });
    rows.push({ flow: flow.name, result, problems: [...new Set(problems.map((p) => p.what))] });
    process.stderr.write(`${flow.name}: ${result}\n`);
  }
  if (elsewhere.length) rows.push({ flow: '(requests elsewhere, aborted)', result: 'note', problems: [...new Set(elsewhere)] });
} finally {
  await browser.close();
  child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}

process.stdout.write(`\n| flow | result | GraphQL errors / HTTP >= 400 |\n| --- | --- | --- |\n`);
for (const row of rows) process.stdout.write(`| ${row.flow} | ${row.result} | ${row.problems.join('<br>') || 'none'} |\n`);
process.stdout.write(`\nscreenshots: ${out}\n`);
