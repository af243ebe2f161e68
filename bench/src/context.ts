import type { BenchConfig } from './config.ts';
import type { Fixtures } from './fixtures.ts';
import type { Target } from './load.ts';
import type { MdsProcess } from './mds-process.ts';
import type { Row } from './report.ts';

/** What every scenario gets: the running servers, the run's sizes, and the shared fixtures. */
export interface BenchContext {
  config: BenchConfig;
  /** Unique per run, so ids stay fresh even on a reused data directory. */
  runId: string;
  mds: MdsProcess;
  /** mds as a load target (root token). */
  target: Target;
  /** Started only when a selected scenario compares against it. */
  ceiling?: Target;
  fixtures: Fixtures;
}

export interface Scenario {
  /** The name `--only` takes. */
  name: string;
  title: string;
  needsCeiling?: boolean;
  run(context: BenchContext): Promise<{ rows: Row[]; details: Record<string, unknown> }>;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
