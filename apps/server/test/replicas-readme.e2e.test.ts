import { testDatabases } from '@mds/db/testing';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it, vi } from 'vitest';
import { freshDataDir, rootTokenIn } from './support/child';
import { apiClient } from './support/api-client';
import { ME } from './support/replicas';

// The README's "Run several replicas" block, run as written but for the database (a fresh one here) and the ports
// (free ones): both replicas serve one database, and the nginx lines after it name the ports it uses.
vi.setConfig({ testTimeout: 120_000 });

const repo = fileURLToPath(new URL('../../../', import.meta.url));
const readme = readFileSync(join(repo, 'README.md'), 'utf8');
const fenced = (pattern: RegExp) => {
  const found = pattern.exec(readme)?.[1];
  if (found === undefined) throw new Error(`README.md has no block matching ${pattern}`);
  return found;
};
const script = fenced(/<!-- replicas -->\n```sh\n([\s\S]*?)```/);
const nginx = fenced(/## Run several replicas[\s\S]*?```nginx\n([\s\S]*?)```/);

const databases = testDatabases();
afterAll(() => databases.dropAll());

it('the nginx upstream names the ports the replicas listen on', () => {
  const ports = [...script.matchAll(/PORT=(\d+) /g)].map((m) => m[1]);
  expect(ports).toEqual(['8081', '8082']);
  expect(nginx).toContain(`upstream mds { ${ports.map((port) => `server 127.0.0.1:${port};`).join(' ')} }`);
});

it('the block starts two replicas on one database: one prints the root token, which works on both', async () => {
  const url = await databases.create();
  const DATABASE_URL = /export DATABASE_URL=(\S+)/.exec(script)![1]!;
  const run = script
    .replace(DATABASE_URL, url)
    .replace(/PORT=\d+ /g, 'PORT=0 ')
    .replace('./data-a', freshDataDir('readme-a'))
    .replace('./data-b', freshDataDir('readme-b'));
  // Its own process group, so that stopping it stops both replicas.
  const shell = spawn('bash', ['-c', `set -euo pipefail\n${run}\nwait`], {
    cwd: repo,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const exited = once(shell, 'close');
  let stderr = '';
  try {
    const urls = await new Promise<string[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`two replicas not listening after 90 s:\n${stderr}`)), 90_000);
      shell.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const listening = [...stderr.matchAll(/mds listening on (http:\/\/\S+)/g)].map((m) => m[1]!);
        if (listening.length < 2) return;
        clearTimeout(timer);
        resolve(listening);
      });
      void exited.then(() => reject(new Error(`the block ended:\n${stderr}`)));
    });
    // Each replica writes its listening line and the root token in one write: both are in by now.
    const token = rootTokenIn(stderr);
    expect(stderr.match(/root access token/g)).toHaveLength(1);
    for (const replicaUrl of urls) {
      const { body } = await apiClient(replicaUrl, `Bearer ${token}`).graphql(ME);
      expect(body.data.me.corpUser.urn).toBe('urn:li:corpuser:datahub');
    }
  } finally {
    process.kill(-shell.pid!, 'SIGTERM');
    await exited;
  }
});
