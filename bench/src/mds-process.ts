import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { makeTempDir, spawnListening, type ListeningChild } from './children.ts';

/**
 * Everything the harness knows about starting mds lives in this file (the server's start-up may change while it is
 * being optimised: adapt it here only).
 */
const SERVER_DIR = fileURLToPath(new URL('../../apps/server/', import.meta.url));
/** The esbuild bundle (`pnpm --filter @mds/server build`; root `pnpm bench` builds it first): what `pnpm start` runs. */
const BUNDLE = join(SERVER_DIR, 'dist/mds.mjs');
/** The CLI from TypeScript source through tsx: used when there is no bundle (e.g. the CI smoke run). */
const FROM_SOURCE = join(SERVER_DIR, 'bin/mds.js');
const ROOT_ACTOR = 'urn:li:corpuser:datahub';

interface MdsSecrets {
  signingKey: string;
  salt: string;
}

interface MdsProcessOptions {
  /** Start on this existing data directory (cold starts); a fresh temporary one when absent. */
  dataDir?: string;
  /** The token secrets the data directory was used with; generated when absent. */
  secrets?: MdsSecrets;
  /** A root token already valid for this data directory; one is created (before the start) when absent. */
  token?: string;
  /** Run the TypeScript sources even when a bundle exists (profiles then name files and packages). */
  fromSource?: boolean;
  /** Extra arguments for node itself, e.g. `--cpu-prof` (which NODE_OPTIONS does not allow). */
  nodeArgs?: string[];
  /** LOG_LEVEL; unset, the server's default (`info`, one line per request): what a user runs. */
  logLevel?: string;
  /** DATABASE_URL: PostgreSQL instead of the SQLite files of the data directory. */
  databaseUrl?: string;
}

/** Which file ran the server, and the node options it ran with: what the report records. */
export interface MdsLaunch {
  kind: 'bundle' | 'source';
  path: string;
  /** Set when the bundle is older than the sources (which then run instead). */
  warning?: string;
  /** The root package.json's `config.serverNodeOptions` (its V8 heap sizing), then `nodeArgs`. */
  nodeOptions: string[];
}

export interface MdsProcess extends ListeningChild {
  launch: MdsLaunch;
  /** A bearer token of the root user (Admin: every privilege). */
  token: string;
  dataDir: string;
  /** What to pass to startMdsProcess to start again on the same data (for cold starts). */
  restartOptions: MdsProcessOptions;
}

/** Only what the server needs, so that the caller's ELASTICSEARCH_*, PORT, NODE_OPTIONS… cannot change the setup. */
function mdsEnv(dataDir: string, secrets: MdsSecrets, logLevel: string | undefined, databaseUrl: string | undefined): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(
    ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ'].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : [])),
  );
  return {
    ...inherited,
    PORT: '0',
    DATA_DIR: dataDir,
    ...(logLevel === undefined ? {} : { LOG_LEVEL: logLevel }),
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    // No NODE_ENV: `pnpm start` sets none and `pnpm dev` sets development, so the server users run is in development
    // mode (which, among others, puts graphql-js on its slower development path unless the bundle pins it).
    DATAHUB_TOKEN_SERVICE_SIGNING_KEY: secrets.signingKey,
    DATAHUB_TOKEN_SERVICE_SALT: secrets.salt,
  };
}

/**
 * The node options `pnpm start` gives the server (the root package.json's `config.serverNodeOptions`, its V8 heap
 * sizing), so that the process measured is the one users run.
 */
export function startNodeOptions(): string[] {
  const manifest = JSON.parse(readFileSync(join(SERVER_DIR, '../../package.json'), 'utf8')) as { config?: { serverNodeOptions?: string } };
  const options = manifest.config?.serverNodeOptions;
  // Without them the bench would silently measure another process than the one `pnpm start` runs.
  if (options === undefined)
    throw new Error('the root package.json has no config.serverNodeOptions, which `pnpm start` runs the server with');
  return options.split(/\s+/).filter(Boolean);
}

/** The newest modification time of the server's and packages' sources, to tell a stale bundle. */
function newestSource(): number {
  const roots = [
    join(SERVER_DIR, 'src'),
    ...readdirSync(join(SERVER_DIR, '../../packages')).map((p) => join(SERVER_DIR, '../../packages', p, 'src')),
  ];
  let newest = 0;
  for (const root of roots.filter((r) => existsSync(r))) {
    for (const file of readdirSync(root, { recursive: true, encoding: 'utf8' }))
      newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  }
  return newest;
}

/**
 * Which file runs the server, given the bundle's modification time (undefined: not built) and the newest source's: the
 * bundle when it is at least as new as every source, else the source CLI — a stale bundle would run (and measure) code
 * that is no longer the repository's, so it is passed over with a warning rather than run.
 */
export function chooseEntry(bundleMtime: number | undefined, newestSourceMtime: number): Omit<MdsLaunch, 'nodeOptions'> {
  if (bundleMtime === undefined) return { path: FROM_SOURCE, kind: 'source' };
  if (bundleMtime < newestSourceMtime) {
    return {
      path: FROM_SOURCE,
      kind: 'source',
      warning: `${BUNDLE} is older than the sources, so the sources run: \`pnpm --filter @mds/server build\` (root \`pnpm bench\` does) to measure the bundle`,
    };
  }
  return { path: BUNDLE, kind: 'bundle' };
}

function mdsEntry(fromSource = false): Omit<MdsLaunch, 'nodeOptions'> {
  if (fromSource || !existsSync(BUNDLE)) return chooseEntry(undefined, 0);
  return chooseEntry(statSync(BUNDLE).mtimeMs, newestSource());
}

/**
 * Starts `mds serve` on loopback (embedded defaults, the default log level unless `logLevel`) as a child process, with
 * a root token made by `mds token create` on the same data directory first. Its log lines (stdout) go to
 * `<dataDir>/server.log`, as to a file a supervisor would keep. Resolves once the server announces its URL.
 */
export async function startMdsProcess(options: MdsProcessOptions = {}): Promise<MdsProcess> {
  const dataDir = options.dataDir ?? makeTempDir('mds-bench-');
  const secrets = options.secrets ?? { signingKey: randomBytes(32).toString('hex'), salt: randomBytes(16).toString('hex') };
  const env = mdsEnv(dataDir, secrets, options.logLevel, options.databaseUrl);
  const launch: MdsLaunch = { ...mdsEntry(options.fromSource), nodeOptions: [...startNodeOptions(), ...(options.nodeArgs ?? [])] };
  let token = options.token;
  if (!token) {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [launch.path, 'token', 'create', '--actor', ROOT_ACTOR, '--name', 'bench'],
      { env, encoding: 'utf8' },
    ).catch((error: { stderr?: string; message: string }) => {
      throw new Error(`mds token create failed: ${error.stderr || error.message}`);
    });
    token = stdout.trim();
  }
  const log = openSync(join(dataDir, 'server.log'), 'a');
  try {
    const child = await spawnListening(process.execPath, [...launch.nodeOptions, launch.path, 'serve'], {
      env,
      urlPattern: /mds listening on (http:\/\/\S+)/,
      what: 'mds',
      stdout: log,
    });
    const restartOptions = {
      dataDir,
      secrets,
      token,
      fromSource: options.fromSource,
      logLevel: options.logLevel,
      databaseUrl: options.databaseUrl,
    };
    return { ...child, launch, token, dataDir, restartOptions };
  } finally {
    closeSync(log); // the child holds its own copy
  }
}
