import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { ASPECTS, indexNameOf } from '../src/proposals.ts';
import type { Report } from '../src/report.ts';
import { SCENARIOS } from '../src/scenarios/index.ts';

const out = mkdtempSync(join(tmpdir(), 'mds-bench-smoke-'));
let child: ChildProcess | undefined;
afterAll(() => {
  // Should the test time out: the harness stops its own servers on SIGINT.
  if (child?.exitCode === null) child.kill('SIGINT');
  rmSync(out, { recursive: true, force: true });
});

/** The harness as CI and users run it: its own process, every scenario, smoke sizes. Asserts shape, never speed. */
test('pnpm bench --smoke runs every scenario and writes well-formed results', async () => {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const harness = spawn(process.execPath, ['--import', tsx, main, '--', '--smoke', '--out', out], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = harness;
  let output = '';
  harness.stdout.on('data', (chunk: Buffer) => (output += chunk));
  harness.stderr.on('data', (chunk: Buffer) => (output += chunk));
  const [code] = await once(harness, 'exit');
  expect(code, output).toBe(0);

  const report = JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8')) as Report;
  expect(report.mode).toBe('smoke');
  expect(report.machine).toMatchObject({ cores: expect.any(Number), node: process.version, date: expect.any(String) });
  expect(report.machine.cpuModel).not.toBe('');
  // The server runs with the node options `pnpm start` gives it.
  const root = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
    config: { serverNodeOptions: string };
  };
  expect(root.scripts.start).toContain('$npm_package_config_serverNodeOptions');
  expect(report.server).toMatchObject({ kind: expect.stringMatching(/^(bundle|source)$/) });
  const startOptions = root.config.serverNodeOptions.split(/\s+/).filter(Boolean);
  expect(startOptions.length).toBeGreaterThan(0);
  expect(report.server.nodeOptions.slice(0, startOptions.length)).toEqual(startOptions);
  expect(report.scenarios.map((s) => s.name)).toEqual(SCENARIOS.map((s) => s.name));
  for (const scenario of report.scenarios) {
    expect(scenario.error, `${scenario.name}: ${scenario.error}`).toBeUndefined();
    expect(scenario.rows.length, scenario.name).toBeGreaterThan(0);
    for (const row of scenario.rows) {
      expect(Number.isFinite(row.value), `${scenario.name}: ${row.label}`).toBe(true);
      expect(row.unit).not.toBe('');
      if (row.ceiling !== undefined) expect(row.ratio).toBeCloseTo(row.value / row.ceiling, 2);
      if (row.target) expect(typeof row.target.met).toBe('boolean');
    }
  }
  // The GraphQL scenarios are compared with the ceiling; the targets the issue sets are all reported.
  const rows = report.scenarios.flatMap((s) => s.rows);
  expect(rows.filter((r) => r.ceiling !== undefined)).toHaveLength(12);
  // Four of them the UI's documents against the ceiling replaying mds's answers: both sides answered.
  const replayed = rows.filter((r) => r.label.includes("replaying mds's answers"));
  expect(replayed).toHaveLength(4);
  for (const row of replayed) expect([row.label, row.value > 0, row.ceiling! > 0]).toEqual([row.label, true, true]);
  expect(rows.filter((r) => r.target)).toHaveLength(29);

  // The load was answered, not only sent: the server reports every index, the truncations delete every row they target.
  const { config } = report;
  const details = Object.fromEntries(report.scenarios.map((s) => [s.name, s.details]));
  const indexSizes = details.getIndexSizes!.indexSizes as { indexName: string }[];
  expect(indexSizes.map((s) => s.indexName).sort()).toEqual(ASPECTS.map(indexNameOf).sort());
  expect(details.truncation).toMatchObject({ deleteByQuery: { deleted: config.truncateRows }, reindex: { deleted: config.truncateRows } });
  // The entity scenarios searched what they ingested, and mds ingest read its whole file.
  // (At least those: a time-series point creates its dataset, as DataHub's does, so the time-series scenarios' datasets count too.)
  expect((details.entitySearch as { entities: number }).entities).toBeGreaterThanOrEqual(config.entityAspects / 4);
  // Batched ingestion was also written to the bare store, and validation timed on its values.
  expect(details.entityIngestBatch).toMatchObject({
    validationCpuUsPerAspect: expect.any(Number),
    bareStore: { seconds: expect.any(Number), cpuUsPerAspect: expect.any(Number) },
  });
  // createTag's floor: the bare store answered the same createTag requests in the same rounds (each round is checked
  // for errors), and its CPU was measured.
  expect(details.createTag).toMatchObject({
    others: { bareStore: { mds: { rps: expect.any(Number), cpuUsPerRequest: expect.any(Number) }, ratio: expect.any(Number) } },
  });
  expect((details.createTag as { others: { bareStore: { mds: { rps: number } } } }).others.bareStore.mds.rps).toBeGreaterThan(0);
  expect(details.lineageSearch).toMatchObject({ edges: config.lineageEdges - (config.lineageEdges % 39), firstTotal: 39 });
  // The UI's own documents were answered (each scenario checks its first answer: 10 search results, every tag, owner and
  // field of the page) and then measured.
  expect(details.uiSearchPage).toMatchObject({ datasets: config.entityAspects / 4, alone: { rps: expect.any(Number) } });
  expect(details.uiDatasetPage).toMatchObject({ getDataset: { rps: expect.any(Number) }, getDatasetSchema: { rps: expect.any(Number) } });
  const answered = [
    (details.uiSearchPage as { alone: { rps: number } }).alone,
    ...['getDataset', 'getDatasetSchema'].map((name) => (details.uiDatasetPage as Record<string, { rps: number }>)[name]!),
  ];
  for (const stats of answered) expect(stats.rps).toBeGreaterThan(0);
  expect(details.lineageSearch).toMatchObject({ ui: { calls: 10, p50Ms: expect.any(Number) } });
  expect(details.ingestFile).toMatchObject({ items: expect.any(Number), peakRssMb: expect.any(Number) });
  const soak = details.soak as { stats: { requests: number }; warmRssMb: number };
  expect(soak.stats.requests).toBeGreaterThan(0);
  expect(soak.warmRssMb).toEqual(expect.any(Number));
  // The log cost compares two servers, each of which answered: the default one logs a line per request, the quiet one none.
  const logCost = details.logCost as { info: { rps: number }; warn: { rps: number } };
  expect(logCost.info.rps).toBeGreaterThan(0);
  expect(logCost.warn.rps).toBeGreaterThan(0);

  const markdown = readFileSync(join(out, 'latest.md'), 'utf8');
  expect(markdown).toContain('| scenario | measured | ceiling | ratio | target | met |');
  expect(markdown.split('\n').filter((line) => /^\| (?!scenario|---)/.test(line))).toHaveLength(rows.length);
});
