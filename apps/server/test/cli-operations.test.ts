import { ROOT_ACTOR_URN } from '@mds/auth';
import { createMdsClient, timeseriesProposal, type IndexSize } from '@mds/client';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatMegabytes } from '../src/cli/index-sizes';
import { parseAge, parseEndTime } from '../src/cli/truncate';
import { compose } from '../src/compose';
import { loadConfig } from '../src/config';
import { freshDataDir, runCli, spawnServer, type ChildServer } from './support/child';

// Each test spawns the CLI one to five times (tsx loads the sources): one run took 17 s on a loaded 2-core machine and a
// test of five runs passed 60 s. One bound for every test of the file, against a hang only, never a speed check.
vi.setConfig({ testTimeout: 300_000 });

// `mds index-sizes` and `mds truncate` as an operator runs them: child processes, on DATA_DIR or against --url.
const BIN = fileURLToPath(new URL('../bin/mds.js', import.meta.url));
const INDEX = 'dataset_datasetprofileaspect_v1';
const TRUNCATE = ['truncate', '--entity', 'dataset', '--aspect', 'datasetProfile', '--older-than', '1d'];
const DRY_RUN =
  /^Delete (\d+) out of (\d+) rows \(\d+\.\d\d%\)\. (Reindexing the aspect without the deleted records|Issuing a delete by query request)\. This was a dry run\. Run with dryRun = false to execute\.\n$/;

/** A data directory with three days of every time-series aspect, and tokens for root and a Reader. */
async function seededDataDir() {
  const DATA_DIR = freshDataDir('cli-ops');
  const domains = await compose(loadConfig({ DATA_DIR, NODE_ENV: 'test' }));
  try {
    await domains.timeseries.service.seed({ days: 3, docsPerDay: 100 });
    await domains.auth.service.roles.assign('urn:li:dataHubRole:Reader', ['urn:li:corpuser:reader']);
    const token = async (actorUrn: string) =>
      (await domains.auth.service.tokens.create({ actorUrn, duration: 'ONE_DAY', name: 'cli-ops' })).accessToken;
    return { DATA_DIR, rootToken: await token(ROOT_ACTOR_URN), readerToken: await token('urn:li:corpuser:reader') };
  } finally {
    for (const module of [...domains.modules].reverse()) await module.close?.();
  }
}

const json = (stdout: string) => JSON.parse(stdout) as IndexSize[];

/** The table's data rows (index names, in printed order) and its total cell. */
function tableOf(stdout: string) {
  const cells = stdout
    .split('\n')
    .filter((line) => line.startsWith('│'))
    .map((line) =>
      line
        .split('│')
        .slice(1, -1)
        .map((c) => c.trim()),
    );
  return { header: cells[0], rows: cells.slice(1, -1), total: cells.at(-1) };
}

function expectTableMatches(stdout: string, sizes: IndexSize[]) {
  const { header, rows, total } = tableOf(stdout);
  expect(header).toEqual(['Index', 'Entity', 'Aspect', 'Size']);
  const bySize = [...sizes].sort((a, b) => b.sizeInMb - a.sizeInMb);
  expect(rows.map((r) => r[0])).toEqual(bySize.map((s) => s.indexName));
  expect(rows.find((r) => r[0] === INDEX)?.slice(1, 3)).toEqual(['dataset', 'datasetprofile']);
  for (const row of rows) expect(row[3]).toMatch(/^\d+(\.\d+)? (B|kB|MB|GB)$/);
  expect(total?.[0]).toBe(`Total (${sizes.length} indices)`);
  expect(total?.[3]).toMatch(/ (kB|MB)$/);
}

describe('local mode (DATA_DIR)', () => {
  let env: Record<string, string>;
  beforeAll(async () => {
    env = { DATA_DIR: (await seededDataDir()).DATA_DIR };
  });

  it('index-sizes prints a table sorted by size with a total, and --json the API array', async () => {
    const asJson = await runCli(['index-sizes', '--json'], env);
    expect(asJson.code).toBe(0);
    const sizes = json(asJson.stdout);
    expect(sizes).toHaveLength(10);
    expect(sizes[0]).toEqual({
      aspectName: expect.any(String),
      sizeMb: expect.any(Number),
      indexName: expect.any(String),
      entityName: expect.any(String),
      sizeInMb: sizes[0]!.sizeMb,
    });

    const table = await runCli(['index-sizes'], env);
    expect(table.code).toBe(0);
    expectTableMatches(table.stdout, sizes);
  });

  it('truncate is a dry run by default, then --execute deletes with a progress bar and the index shrinks', async () => {
    const before = json((await runCli(['index-sizes', '--json'], env)).stdout).find((s) => s.indexName === INDEX)!;
    const dry = await runCli(TRUNCATE, env);
    expect([dry.code, dry.stderr]).toEqual([0, expect.stringContaining('add --execute')]);
    const [, matching, total] = DRY_RUN.exec(dry.stdout)!;
    expect(Number(matching)).toBeGreaterThan(0);

    const run = await runCli([...TRUNCATE, '--execute', '--force-delete-by-query', '--batch-size', '25'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/Started truncation task \S+:\d+ in this process\./);
    expect(run.stderr).toContain(`100% | ${matching}/${matching} rows deleted`);
    expect(run.stdout).toMatch(new RegExp(`^Task \\S+:\\d+ completed: deleted ${matching} of ${matching} rows in \\d+\\.\\d s\\.\\n$`));

    expect((await runCli(TRUNCATE, env)).stdout).toMatch(new RegExp(`^Delete 0 out of ${Number(total) - Number(matching)} rows`));
    const after = json((await runCli(['index-sizes', '--json'], env)).stdout).find((s) => s.indexName === INDEX)!;
    expect(after.sizeInMb).toBeLessThan(before.sizeInMb);
  });

  it('an unknown aspect is the server’s 400 message, exit 1', async () => {
    const result = await runCli(['truncate', '--entity', 'dataset', '--aspect', 'nope', '--end-time', '2024-01-01'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^mds: Parameter 'aspect' of action 'truncateTimeseriesAspect': /);
  });
});

describe('remote mode (--url)', () => {
  let server: ChildServer;
  let seeded: Awaited<ReturnType<typeof seededDataDir>>;
  let remote: string[];
  beforeAll(async () => {
    seeded = await seededDataDir();
    server = await spawnServer({ DATA_DIR: seeded.DATA_DIR });
    remote = ['--url', server.url, '--token', seeded.rootToken];
  });
  afterAll(() => server?.stop());
  // Only the variables the CLI reads: no DATA_DIR, so nothing local can answer by mistake.
  const env = { DATA_DIR: '/nonexistent/mds-cli-remote' };

  it('index-sizes --json is the server’s getIndexSizes array; the table shows the same indices', async () => {
    const asJson = await runCli(['index-sizes', '--json', ...remote], env);
    expect(asJson.code, asJson.stderr).toBe(0);
    const fromApi = await createMdsClient({ url: server.url, token: seeded.rootToken }).operations.getIndexSizes();
    expect(json(asJson.stdout)).toEqual(fromApi);

    // MDS_TOKEN stands in for --token.
    const table = await runCli(['index-sizes', '--url', server.url], { ...env, MDS_TOKEN: seeded.rootToken });
    expect(table.code, table.stderr).toBe(0);
    expectTableMatches(table.stdout, fromApi);
  });

  it('truncate prints the server’s dry-run message verbatim, and --execute follows the task to completion', async () => {
    const client = createMdsClient({ url: server.url, token: seeded.rootToken });
    const endTime = String(Date.now() - 86_400_000);
    const dry = await runCli(['truncate', '--entity', 'dataset', '--aspect', 'datasetProfile', '--end-time', endTime, ...remote], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toBe(
      `${await client.operations.truncateTimeseriesAspect({ entityType: 'dataset', aspect: 'datasetProfile', endTimeMillis: Number(endTime) })}\n`,
    );
    const [, matching] = DRY_RUN.exec(dry.stdout)!;
    const before = (await client.operations.getIndexSizes()).find((s) => s.indexName === INDEX)!;

    const run = await runCli(
      ['truncate', '--entity', 'dataset', '--aspect', 'datasetProfile', '--end-time', endTime, '--execute', ...remote],
      env,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`on ${server.url}.`);
    expect(run.stderr).toContain(`100% | ${matching}/${matching} rows deleted`);
    expect(run.stdout).toMatch(new RegExp(`^Task \\S+:\\d+ completed: deleted ${matching} of ${matching} rows`));

    // The server recomputes sizes in the background once writes pause.
    await expect
      .poll(async () => (await client.operations.getIndexSizes()).find((s) => s.indexName === INDEX)!.sizeInMb, { timeout: 120_000 })
      .toBeLessThan(before.sizeInMb);
    const after = json((await runCli(['index-sizes', '--json', ...remote], env)).stdout).find((s) => s.indexName === INDEX)!;
    expect(after.sizeInMb).toBeLessThan(before.sizeInMb);
  });

  it('Ctrl-C stops watching, not the task, and says how to check it later', async () => {
    const client = createMdsClient({ url: server.url, token: seeded.rootToken });
    // Enough rows that a truncation in batches of one takes seconds.
    for (let batch = 0; batch < 40; batch++) {
      const proposals = Array.from({ length: 1000 }, (_, i) =>
        timeseriesProposal({
          entityType: 'chart',
          entityUrn: `urn:li:chart:(looker,c${i})`,
          aspectName: 'chartUsageStatistics',
          value: { timestampMillis: 1_000_000 + batch * 1000 + i, viewsCount: i },
        }),
      );
      await client.ingestProposalBatch(proposals);
    }
    const child = spawn(
      process.execPath,
      [
        BIN,
        'truncate',
        '--entity',
        'chart',
        '--aspect',
        'chartUsageStatistics',
        '--end-time',
        '2000-01-01',
        '--execute',
        '--force-delete-by-query',
        '--batch-size',
        '1',
        ...remote,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let interrupted = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/Started truncation task/.test(stderr) && !interrupted) interrupted = child.kill('SIGINT');
    });
    const [code] = await once(child, 'close'); // not 'exit': stderr is read in full only once it has ended
    expect(code, stderr).toBe(130);
    const task = /Stopped watching\. Task (\S+:\d+) keeps running on (\S+); check it with: mds task-status \1 --url \2/.exec(stderr)?.[1];
    expect(task, stderr).toBeDefined();
    await expect
      .poll(async () => client.operations.getEsTaskStatus(task!), { timeout: 120_000, interval: 250 })
      .toMatchObject({ completed: true, status: { deleted: 40_000, total: 40_000 } });
    expect(await client.operations.getEsTaskStatus(task!)).not.toHaveProperty('error');
  });

  it('a Reader’s token is refused with the server’s 403 message, exit 1', async () => {
    const sizes = await runCli(['index-sizes', '--url', server.url, '--token', seeded.readerToken], env);
    expect([sizes.code, sizes.stdout]).toEqual([1, '']);
    expect(sizes.stderr).toBe(`mds: User is unauthorized to get index sizes. (HTTP 403 from ${server.url})\n`);
    const truncate = await runCli([...TRUNCATE, '--url', server.url], { ...env, MDS_TOKEN: seeded.readerToken });
    expect(truncate.code).toBe(1);
    expect(truncate.stderr).toContain('mds: User is unauthorized to truncate timeseries index');
  });

  it('a missing token is a usage error (exit 2); a wrong one is the server’s 401 (exit 1)', async () => {
    const missing = await runCli(['index-sizes', '--url', server.url], { ...env, MDS_TOKEN: '' });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--url needs an access token');
    const wrong = await runCli(['index-sizes', '--url', server.url, '--token', 'not-a-token'], env);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('mds: Unauthorized to perform this action. (HTTP 401');
  });
});

describe('usage errors exit 2 and say what is wrong', () => {
  it.each([
    [['truncate', '--entity', 'dataset', '--older-than', '1d'], /required option '--aspect <name>' not specified/],
    [[...TRUNCATE.slice(0, -1), '3 weeks'], /option '--older-than <age>' argument '3 weeks' is invalid\. must be <N>d, <N>h or <N>m/],
    [['truncate', '--entity', 'dataset', '--aspect', 'datasetProfile'], /--older-than <age> or --end-time <time>/],
    [[...TRUNCATE, '--end-time', 'yesterday'], /argument 'yesterday' is invalid\. must be epoch milliseconds or an ISO date/],
    [[...TRUNCATE, '--end-time', '2024-01-01'], /option '--older-than <age>' cannot be used with option '--end-time <time>'/],
    [['index-sizes', '--url', 'ftp://example.com'], /must be an http\(s\) URL/],
  ])('mds %j', async (args, message) => {
    const result = await runCli(args, { DATA_DIR: '/nonexistent/mds-cli-usage' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});

describe('units and times', () => {
  it('sizes are decimal, three significant digits, the unit moving up before 1000', () => {
    expect([0.000512, 0.2089, 0.9996, 12.345, 1234.5, 0].map(formatMegabytes)).toEqual([
      '512 B',
      '209 kB',
      '1.00 MB',
      '12.3 MB',
      '1.23 GB',
      '0 B',
    ]);
  });

  it('--older-than takes days, hours or minutes; --end-time epoch milliseconds or an ISO date', () => {
    expect([parseAge('30d'), parseAge('12h'), parseAge('90m')]).toEqual([30 * 86_400_000, 12 * 3_600_000, 90 * 60_000]);
    expect(() => parseAge('30')).toThrow(/<N>d, <N>h or <N>m/);
    expect(parseEndTime('1700000000000')).toBe(1_700_000_000_000);
    expect(parseEndTime('2024-01-31T00:00:00Z')).toBe(Date.UTC(2024, 0, 31));
    expect(() => parseEndTime('2024-13-45')).toThrow(/epoch milliseconds or an ISO date/);
  });
});
