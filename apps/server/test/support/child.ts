import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/mds.js', import.meta.url));

export interface ChildServer {
  process: ChildProcess;
  url: string;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Everything the process wrote to stdout (its log lines) so far. */
  stdout(): string;
  exited: Promise<number | null>;
}

/** Starts `mds serve` (from source, or the bundle given as `entry`) as its own process and waits for the line announcing its URL. */
export async function spawnServer(env: Record<string, string>, entry: string = BIN): Promise<ChildServer> {
  const child = spawn(process.execPath, [entry, 'serve'], { env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /mds listening on (http:\/\/\S+)/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`mds exited with ${code} before listening:\n${stderr}`)));
  });
  return { process: child, url, stderr: () => stderr, stdout: () => stdout, exited };
}

/** Runs the `mds` CLI to completion. */
export function runCli(args: string[], env: Record<string, string>) {
  const result = spawnSync(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
