import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { profileDirIn, runBench } from './bench.ts';
import { FULL, SMOKE } from './config.ts';
import { toMarkdown, writeReport } from './report.ts';
import { SCENARIOS } from './scenarios/index.ts';

const USAGE = `usage: pnpm bench [--smoke] [--only <scenario,…>] [--out <dir>] [--profile | --profile-bundle] [--postgres]
  --smoke     every scenario with tiny sizes and ~1 s durations (checks the harness works)
  --only      run only these scenarios: ${SCENARIOS.map((s) => s.name).join(', ')}
  --out       where latest.json and latest.md go (default: bench/results)
  --profile   run the server from its sources under --cpu-prof and summarise its hot spots
  --profile-bundle   the same with the bundle, i.e. what is measured (names are the bundle's)
  --postgres  run mds on PostgreSQL (MDS_BENCH_POSTGRES_URL, else a throwaway local server) and charge it its CPU apart
  --datasets  how many datasets entityIngestBatch writes and the search scenarios search (default 100,000, issue 31's
              size; fewer for a quick run of uiSearchPage)`;

function fail(message: string): never {
  process.stderr.write(`bench: ${message}\n${USAGE}\n`);
  process.exit(2);
}

// `pnpm --filter @mds/bench bench -- --out x` hands the script a literal `--`, which would end the options.
const argv = process.argv.slice(2);
if (argv[0] === '--') argv.shift();

let args;
try {
  args = parseArgs({
    args: argv,
    options: {
      smoke: { type: 'boolean', default: false },
      only: { type: 'string' },
      out: { type: 'string' },
      profile: { type: 'boolean', default: false },
      'profile-bundle': { type: 'boolean', default: false },
      postgres: { type: 'boolean', default: false },
      datasets: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
} catch (error) {
  fail((error as Error).message);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

if (args.profile && args['profile-bundle']) fail('--profile and --profile-bundle are alternatives: give one of them');

const datasets = args.datasets === undefined ? undefined : Number(args.datasets);
if (datasets !== undefined && !(Number.isInteger(datasets) && datasets >= 10))
  fail(`--datasets takes a whole number of at least 10, not ${args.datasets}`);

const names = args.only
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const unknown = names?.filter((n) => !SCENARIOS.some((s) => s.name === n)) ?? [];
if (unknown.length) fail(`unknown scenario(s): ${unknown.join(', ')}`);
const scenarios = names ? SCENARIOS.filter((s) => names.includes(s.name)) : SCENARIOS;
const outDir = args.out ?? fileURLToPath(new URL('../results', import.meta.url));
const log = (message: string) => process.stderr.write(`${message}\n`);

const report = await runBench({
  // On PostgreSQL a write is a dozen round trips: 20 k aspects measure the rate without a quarter-hour fill.
  config: {
    ...(args.smoke ? SMOKE : args.postgres ? { ...FULL, entityAspects: Math.min(FULL.entityAspects, 20_000) } : FULL),
    ...(datasets === undefined ? {} : { entityAspects: datasets * 4 }),
  },
  scenarios,
  profile: args.profile || args['profile-bundle'] ? { dir: profileDirIn(outDir), fromSource: !args['profile-bundle'] } : undefined,
  postgres: args.postgres,
  log,
}).catch((error: unknown) => {
  log(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
const written = writeReport(outDir, report);
process.stdout.write(`\n${toMarkdown(report)}\n`);
if (report.profile) process.stdout.write(`CPU profile summary:\n${JSON.stringify(report.profile, null, 2)}\n`);
log(`results: ${written.json}, ${written.markdown}`);
const failed = report.scenarios.filter((s) => s.error);
// Last, so that a log cut to its tail (CI's summary of a failed test) still says what failed and why.
for (const s of failed) log(`failed scenario ${s.name}: ${s.error!.split('\n').slice(0, 4).join('\n  ')}`);
process.exit(failed.length ? 1 : 0);
