import autocannon from 'autocannon';
import { cpuSecondsOf } from './proc-status.ts';

/** A server under load: its base URL and the bearer token it accepts. */
export interface Target {
  url: string;
  token: string;
  /** The server's process, to charge it the CPU time its requests cost. */
  pid?: number;
  /** CPU seconds its database server has used so far (PostgreSQL), to charge it its share apart. */
  databaseCpu?: () => number | undefined;
}

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  /** A fixed body, or a generator called for every request (fresh ids, rotating urns). */
  body?: string | (() => string);
  /** A path for every request (rotating urns in GET paths), instead of the fixed `path`. */
  pathOf?: () => string;
}

interface LoadOptions {
  connections: number;
  durationS: number;
  /** A fixed number of requests instead of a duration: the load ends when all of them are answered. */
  amount?: number;
  /** A steady rate over all connections (requests/s) instead of as fast as possible. */
  overallRate?: number;
}

interface LoadStats {
  durationS: number;
  requests: number;
  rps: number;
  latencyMs: { mean: number; p50: number; p90: number; p99: number; max: number };
  /** Everything that is not a clean answer: socket errors, timeouts, non-2xx, GraphQL `errors` in a 200. */
  errors: { total: number; socket: number; timeouts: number; non2xx: number; graphqlErrors: number };
  statusCodes: Record<string, number>;
  /**
   * CPU time the server process (all its threads) spent per request, in µs. Unlike throughput, this barely moves
   * when other work on a shared machine takes CPU from the load generator or the server.
   */
  cpuUsPerRequest?: number;
  /** The same for the database server (PostgreSQL), when there is one apart. */
  databaseCpuUsPerRequest?: number;
  /** The first few failed answers, to tell what went wrong. */
  errorSamples: string[];
}

interface RunningLoad {
  /** Ends the load early (the result arrives at autocannon's next 1 s tick). */
  stop(): void;
  done: Promise<LoadStats>;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Starts autocannon against `target`; every connection cycles through `requests` in order. */
export function startLoad(target: Target, requests: LoadRequest[], options: LoadOptions): RunningLoad {
  let graphqlErrors = 0;
  const errorSamples: string[] = [];
  // A GraphQL error still answers 200: look into the body (Rest.li bodies never hold this key).
  const onResponse = (status: number, body: string) => {
    const failed = status >= 300 || body.includes('"errors":[');
    if (status < 300 && failed) graphqlErrors++;
    if (failed && errorSamples.length < 5) errorSamples.push(`${status} ${body.slice(0, 300)}`);
  };
  const instance = autocannon({
    url: target.url,
    connections: options.connections,
    ...(options.amount === undefined ? { duration: options.durationS } : { amount: options.amount }),
    overallRate: options.overallRate,
    timeout: 10,
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    requests: requests.map(({ method, path, body, pathOf }) =>
      typeof body === 'function' || pathOf
        ? {
            method,
            path,
            onResponse,
            setupRequest: (request) => ({
              ...request,
              ...(pathOf ? { path: pathOf() } : {}),
              ...(typeof body === 'function' ? { body: body() } : body === undefined ? {} : { body }),
            }),
          }
        : { method, path, body, onResponse },
    ),
  });
  const cpuBefore = target.pid === undefined ? undefined : cpuSecondsOf(target.pid);
  const databaseBefore = target.databaseCpu?.();
  const done = Promise.resolve(instance).then((r): LoadStats => {
    const durationS = r.duration;
    const cpu = cpuBefore === undefined ? undefined : cpuSecondsOf(target.pid!) - cpuBefore;
    const databaseAfter = target.databaseCpu?.();
    const database = databaseBefore === undefined || databaseAfter === undefined ? undefined : databaseAfter - databaseBefore;
    const perRequest = (seconds: number) => round((seconds * 1e6) / r.requests.total, 1);
    return {
      ...(cpu === undefined || r.requests.total === 0 ? {} : { cpuUsPerRequest: perRequest(cpu) }),
      ...(database === undefined || r.requests.total === 0 ? {} : { databaseCpuUsPerRequest: perRequest(database) }),
      durationS,
      requests: r.requests.total,
      rps: round(r.requests.total / durationS, 1),
      latencyMs: { mean: round(r.latency.mean), p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
      errors: {
        total: r.errors + r.non2xx + graphqlErrors,
        socket: r.errors - r.timeouts,
        timeouts: r.timeouts,
        non2xx: r.non2xx,
        graphqlErrors,
      },
      statusCodes: Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, { count }]) => [code, count])),
      errorSamples,
    };
  });
  return { stop: () => instance.stop(), done };
}

const runLoad = (target: Target, requests: LoadRequest[], options: LoadOptions) => startLoad(target, requests, options).done;

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Medians over rounds of what the report shows. */
export function summarize(rounds: LoadStats[]) {
  return {
    rps: median(rounds.map((r) => r.rps)),
    p50Ms: median(rounds.map((r) => r.latencyMs.p50)),
    p99Ms: median(rounds.map((r) => r.latencyMs.p99)),
    cpuUsPerRequest: median(rounds.flatMap((r) => (r.cpuUsPerRequest === undefined ? [] : [r.cpuUsPerRequest]))),
    databaseCpuUsPerRequest: median(rounds.flatMap((r) => (r.databaseCpuUsPerRequest === undefined ? [] : [r.databaseCpuUsPerRequest]))),
  };
}

interface RoundOptions {
  connections: number;
  rounds: number;
  roundS: number;
  warmupS: number;
}

/**
 * Throws when a round's load was answered with errors: a run of 401s or GraphQL errors has numbers, but they
 * measure the failure, not the server.
 */
function assertClean(name: string, round: number, stats: LoadStats): void {
  const { errors } = stats;
  if (errors.total === 0) return;
  throw new Error(
    `${name} answered ${errors.total} of ${stats.requests} requests in round ${round} with an error ` +
      `(socket ${errors.socket}, timeouts ${errors.timeouts}, non-2xx ${errors.non2xx}, GraphQL errors ${errors.graphqlErrors}); ` +
      `first: ${stats.errorSamples.join(' | ') || '(no answer to show)'}`,
  );
}

/**
 * A timed load, or — when nothing was answered within its time (a request slower than the round on a busy machine:
 * autocannon counts no answer still in flight when the time is up) — one request per connection, each waited for.
 * Every round then has answers to measure, however slow the machine.
 */
async function loadWithAnswers(target: Target, requests: LoadRequest[], options: LoadOptions): Promise<LoadStats> {
  const timed = await runLoad(target, requests, options);
  if (timed.requests > 0 || timed.errors.total > 0) return timed;
  return runLoad(target, requests, { ...options, amount: options.connections });
}

/**
 * Loads each of `targets` (by name) with the same requests and connections: a short unrecorded warm-up of each
 * (JIT, caches), then rounds taking the targets in turn, so that drift of the machine (other load, thermal) hits
 * them alike. A round with any error fails; a round that answered nothing in its time is measured on one request per
 * connection instead (loadWithAnswers).
 */
export async function runRounds<Name extends string>(
  targets: Record<Name, Target>,
  requests: LoadRequest[],
  options: RoundOptions,
): Promise<Record<Name, LoadStats>[]> {
  const entries = Object.entries(targets) as [Name, Target][];
  const load = { connections: options.connections, durationS: options.roundS };
  if (options.warmupS > 0) {
    for (const [, target] of entries) await runLoad(target, requests, { ...load, durationS: options.warmupS });
  }
  const rounds: Record<Name, LoadStats>[] = [];
  for (let i = 1; i <= options.rounds; i++) {
    const byTarget = {} as Record<Name, LoadStats>;
    for (const [name, target] of entries) {
      byTarget[name] = await loadWithAnswers(target, requests, load);
      assertClean(name, i, byTarget[name]);
    }
    rounds.push(byTarget);
  }
  return rounds;
}

/** A server's summary against the ceiling's in the same rounds: by throughput, and by cost (the ceiling's CPU per request over its own). */
function compared(server: Summary, ceiling: Summary) {
  return {
    mds: server,
    ceiling,
    ratio: round(server.rps / ceiling.rps, 3),
    cpuRatio: round(ceiling.cpuUsPerRequest / server.cpuUsPerRequest, 3),
  };
}

type Summary = ReturnType<typeof summarize>;
export type Comparison = ReturnType<typeof compared>;

/**
 * mds against the ceiling with the same requests and connections, in alternating rounds (see runRounds); `alongside`
 * are other servers loaded in the same rounds with the same requests (the bare store), each compared with the ceiling
 * as mds is (its summary in `mds`).
 */
export async function versusCeiling<Other extends string = never>(
  mds: Target,
  ceiling: Target,
  requests: LoadRequest[],
  options: RoundOptions,
  alongside: Partial<Record<Other, Target>> = {},
) {
  type Name = Other | 'mds' | 'ceiling';
  const rounds = await runRounds<Name>({ ...alongside, mds, ceiling } as Record<Name, Target>, requests, options);
  const side = (name: Name) => summarize(rounds.map((r) => r[name]));
  const c = side('ceiling');
  const others = Object.fromEntries((Object.keys(alongside) as Other[]).map((name) => [name, compared(side(name), c)]));
  return { ...compared(side('mds'), c), rounds, others: others as Partial<Record<Other, Comparison>> };
}
