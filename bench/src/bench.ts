import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startCeilingProcess } from './ceiling-process.ts';
import type { ListeningChild } from './children.ts';
import type { BenchConfig } from './config.ts';
import type { BenchContext, Scenario } from './context.ts';
import { Fixtures } from './fixtures.ts';
import { startMdsProcess, type MdsLaunch, type MdsProcess } from './mds-process.ts';
import { benchPostgres } from './postgres.ts';
import { memoryOf } from './proc-status.ts';
import { summarizeProfiles } from './profile.ts';
import { machine, type Report, type ScenarioResult } from './report.ts';

interface BenchOptions {
  config: BenchConfig;
  scenarios: readonly Scenario[];
  /** Profile the server with `--cpu-prof` into `dir`, from its sources (readable names) or from the bundle (what is measured). */
  profile?: { dir: string; fromSource: boolean };
  /** Run mds on PostgreSQL (`--postgres`) rather than its SQLite files. */
  postgres?: boolean;
  log(message: string): void;
}

/**
 * Runs the selected scenarios against one mds process (and one ceiling process when needed). A scenario that fails
 * is recorded with its error and the run goes on; every child process is stopped before this returns.
 */
export async function runBench(options: BenchOptions): Promise<Report> {
  const { config, log } = options;
  const started = performance.now();
  const results: ScenarioResult[] = [];
  let mds: MdsProcess | undefined;
  let ceiling: ListeningChild | undefined;
  let server: MdsLaunch;
  let postgres: ReturnType<typeof benchPostgres> | undefined;
  const { profile } = options;
  try {
    if (profile) {
      rmSync(profile.dir, { recursive: true, force: true });
      mkdirSync(profile.dir, { recursive: true });
    }
    if (options.postgres) {
      postgres = benchPostgres();
      log(`PostgreSQL at ${postgres.url}${postgres.durable ? '' : ' (the throwaway test server: fsync and synchronous_commit off)'}`);
    }
    mds = await startMdsProcess({
      ...(profile ? { fromSource: profile.fromSource, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profile.dir}`] } : {}),
      ...(postgres ? { databaseUrl: postgres.url } : {}),
    });
    server = mds.launch;
    log(`mds from ${server.kind}: ${server.path} (node ${server.nodeOptions.join(' ')})`);
    if (server.warning) log(`WARNING: ${server.warning}`);
    log(`mds pid ${mds.pid} at ${mds.url}, data in ${mds.dataDir}`);
    if (options.scenarios.some((s) => s.needsCeiling)) {
      ceiling = await startCeilingProcess();
      log(`ceiling pid ${ceiling.pid} at ${ceiling.url}`);
    }
    const runId = randomBytes(4).toString('hex');
    const target = { url: mds.url, token: mds.token, pid: mds.pid, ...(postgres ? { databaseCpu: postgres.cpuSeconds } : {}) };
    const context: BenchContext = {
      config,
      runId,
      mds,
      target,
      ceiling: ceiling && { url: ceiling.url, token: 'ceiling', pid: ceiling.pid },
      fixtures: new Fixtures(target, config, runId),
    };
    for (const scenario of options.scenarios) {
      log(`▶ ${scenario.name}`);
      const t0 = performance.now();
      const seconds = () => Math.round((performance.now() - t0) / 100) / 10;
      try {
        const { rows, details } = await scenario.run(context);
        const serverMemory = mds.running() ? memoryOf(mds.pid) : undefined;
        results.push({ name: scenario.name, title: scenario.title, seconds: seconds(), rows, serverMemory, details });
        for (const row of rows)
          log(
            `  ${row.label}: ${row.value} ${row.unit}${row.target ? ` (${row.target.met ? 'met' : 'NOT met'}: ${row.target.text})` : ''}`,
          );
      } catch (error) {
        let message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        if (!mds.running() && scenario.name !== 'coldStart')
          message += `\nmds has exited; its stderr ends with:\n${mds.stderr().slice(-2000)}`;
        results.push({ name: scenario.name, title: scenario.title, seconds: seconds(), rows: [], details: {}, error: message });
        log(`  failed: ${message}`);
      }
    }
  } finally {
    await Promise.all([mds?.stop(), ceiling?.stop()]);
    postgres?.stop();
  }
  const database = postgres ? `PostgreSQL${postgres.durable ? '' : ' (throwaway test server, fsync off)'}` : 'SQLite';
  const report: Report = {
    mode: config.mode,
    machine: machine(),
    config,
    server,
    database,
    seconds: Math.round((performance.now() - started) / 1000),
    scenarios: results,
  };
  if (profile) report.profile = { dir: profile.dir, threads: summarizeProfiles(profile.dir) };
  return report;
}

export const profileDirIn = (outDir: string) => join(outDir, 'profile');
