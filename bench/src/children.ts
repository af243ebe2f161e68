import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Every process and temporary directory the harness creates, so that none outlives it: they are released on a
 * normal exit, on an error, and on Ctrl-C / SIGTERM (children get SIGKILL then: the run is being abandoned).
 */
const live = new Set<ChildProcess>();
const tempDirs = new Set<string>();
let hooksInstalled = false;

function releaseAll(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

function installExitHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', releaseAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}, stopping every child process\n`);
      releaseAll();
      process.exit(130);
    });
  }
}

/** A fresh directory under the OS temp dir, removed when the harness exits. */
export function makeTempDir(prefix: string): string {
  installExitHooks();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

/**
 * How long a child may take to announce its URL (a hang bound: mds started from source beside a full test run on two
 * cores once took over 30 s), and to stop after SIGTERM before it gets SIGKILL.
 */
const START_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 15_000;

export interface ListeningChild {
  pid: number;
  url: string;
  /** performance.now() just before spawn(). */
  spawnedAt: number;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Neither exited nor killed by a signal yet. */
  running(): boolean;
  /** SIGTERM (a graceful stop, which also lets --cpu-prof write its profile), SIGKILL after STOP_GRACE_MS. */
  stop(): Promise<void>;
}

/** Spawns a process and waits until its stderr shows `urlPattern` (first group: the URL it listens on). */
export async function spawnListening(
  command: string,
  args: string[],
  options: {
    env: NodeJS.ProcessEnv;
    urlPattern: RegExp;
    what: string;
    /** File descriptor for its stdout (default: discarded). */ stdout?: number;
  },
): Promise<ListeningChild> {
  installExitHooks();
  const spawnedAt = performance.now();
  const child = spawn(command, args, { env: options.env, stdio: ['ignore', options.stdout ?? 'ignore', 'pipe'] });
  live.add(child);
  const exited = once(child, 'exit').then(([code]) => {
    live.delete(child);
    return code as number | null;
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${options.what} did not start within ${START_TIMEOUT_MS} ms:\n${stderr}`)),
      START_TIMEOUT_MS,
    );
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = options.urlPattern.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('error', reject);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${options.what} exited with code ${code} before listening:\n${stderr}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });

  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (!running()) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  };
  return { pid: child.pid!, url, spawnedAt, stderr: () => stderr, running, stop };
}
