import { readdirSync, readFileSync } from 'node:fs';
import { provisionTestEnv, teardownTestEnv } from '../../scripts/test-env.mjs';
import { cpuSecondsOf, statFields, TICKS_PER_SECOND } from './proc-status.ts';

/**
 * The PostgreSQL `pnpm bench --postgres` runs mds on: MDS_BENCH_POSTGRES_URL when set (a server tuned as in
 * production), else the test command's throwaway server (fsync and synchronous_commit off: faster commits than a
 * durable server, said in the report). Stopped by `stop()` when it is the throwaway one.
 */
export function benchPostgres(): { url: string; durable: boolean; cpuSeconds: () => number | undefined; stop(): void } {
  const given = process.env.MDS_BENCH_POSTGRES_URL;
  const url = given ?? (provisionTestEnv() as { MDS_TEST_POSTGRES_URL?: string }).MDS_TEST_POSTGRES_URL;
  if (!url) throw new Error("no PostgreSQL: set MDS_BENCH_POSTGRES_URL, or let the bench start one (it needs Debian's postgresql)");
  const port = new URL(url).port || '5432';
  const host = new URL(url).hostname;
  // Only a server on this machine can be charged its CPU time.
  const postmaster = host === '127.0.0.1' || host === 'localhost' ? findPostmaster(port) : undefined;
  return {
    url,
    durable: given !== undefined,
    cpuSeconds: () => (postmaster === undefined ? undefined : postgresCpuSeconds(postmaster)),
    stop: () => {
      if (!given) teardownTestEnv();
    },
  };
}

const argvOf = (pid: string) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
};

/** The postmaster listening on `port`: the `postgres` process started with `-p <port>`. */
function findPostmaster(port: string): number | undefined {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const argv = argvOf(pid);
    const p = argv.indexOf('-p');
    if (argv[0]?.endsWith('/postgres') && p >= 0 && argv[p + 1] === port) return Number(pid);
  }
  return undefined;
}

/**
 * CPU seconds the whole server has used: the postmaster, the backends it still runs (a pool's connections live the
 * whole run), and those that have exited (counted in the postmaster's cutime and cstime).
 */
function postgresCpuSeconds(postmaster: number): number {
  const own = statFields(postmaster);
  let seconds = cpuSecondsOf(postmaster) + (Number(own[13]) + Number(own[14])) / TICKS_PER_SECOND;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (Number(statFields(pid)[1]) === postmaster) seconds += cpuSecondsOf(Number(pid));
    } catch {
      // Gone between the listing and the read: its time is in the postmaster's cutime now.
    }
  }
  return seconds;
}
