import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/mds.js', import.meta.url));
/**
 * How long `spawnServer` waits for the listening line before killing the process; under the 180 s hook timeout. A
 * start takes ~1 s on an idle machine and was seen past 50 s on a 2-core one at load 70: the bound catches a hang only.
 */
const STARTUP_TIMEOUT_MS = 120_000;

// Removed once the importing test file has finished: registered at import, before the file's own hooks, this runs
// after them (vitest runs after-hooks as a stack), so servers are stopped by then. Not on process exit: vitest ends
// its forks with SIGTERM, which runs no exit handlers.
const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty directory under the system's temp dir, for DATA_DIR; removed after the test file's last hook. */
export const freshDataDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `mds-${label}-`));
  dataDirs.push(dir);
  return dir;
};

export interface ChildServer {
  process: ChildProcess;
  url: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Everything the process wrote to stdout (its log lines) so far. */
  stdout(): string;
  /** The exit code (null when a signal killed it), once the process has exited and its stdout and stderr have ended. */
  exited: Promise<number | null>;
  /**
   * Sends `signal` (to the whole process group for a command launch, even once its leader has exited; otherwise unless
   * the process has exited) and waits for `exited`.
   */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How to launch the server: `mds serve` from source by default, the bundle, or a command such as `pnpm dev`. */
type Launch = string | { command: string; args: string[]; cwd: string };

/**
 * Starts the server as its own process and waits for the line announcing its URL. A command launch gets its own
 * process group, which `stop` signals as a whole, so the signal reaches the server behind pnpm and sh.
 */
export async function spawnServer(env: Record<string, string>, launch: Launch = BIN): Promise<ChildServer> {
  const [command, args, cwd] =
    typeof launch === 'string' ? [process.execPath, [launch, 'serve']] : [launch.command, launch.args, launch.cwd];
  const detached = typeof launch !== 'string';
  const child = spawn(command, args, {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd,
    detached,
  });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  // 'close', not 'exit': it waits for stdout and stderr to end, so both are read in full, and for a command launch
  // the pipes end only once every process holding them (pnpm, sh, the server behind them) is gone.
  const exited = once(child, 'close').then(([code]) => code as number | null);
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    // The group even once its leader (pnpm) has exited: the server behind it may still run.
    if (detached) {
      try {
        process.kill(-child.pid!, signal);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    } else if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  let timer: NodeJS.Timeout | undefined;
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /mds listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`mds exited with ${code} before listening:\n${stderr}`)));
    timer = setTimeout(() => {
      void stop('SIGKILL');
      reject(new Error(`mds not listening after ${STARTUP_TIMEOUT_MS} ms; killed. stderr:\n${stderr}\nstdout:\n${stdout}`));
    }, STARTUP_TIMEOUT_MS);
  }).finally(() => clearTimeout(timer));
  return { process: child, url, stderr: () => stderr, stdout: () => stdout, exited, stop };
}

/** The root access token a first development start prints on stderr, if it printed one. */
export const rootTokenIn = (stderr: string) => /root access token[^\n]*\n\s+(\S+)/.exec(stderr)?.[1];

/**
 * Runs the `mds` CLI to completion. Asynchronously: a test that blocked its event loop in spawnSync would keep its
 * HTTP clients' idle keep-alive sockets past their deadline, then reuse one just as the server closes it.
 */
export async function runCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr };
}
