import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { spawnServer } from './support/child';

// The README's tour is documentation people paste: run it exactly as written, so it cannot rot.
const repo = fileURLToPath(new URL('../../../', import.meta.url));

function tourScript(): string {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const block = /<!-- tour -->\s*```sh\n([\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no <!-- tour --> sh block');
  return block[1]!;
}

it('the README tour runs from start to finish against a server started as Quick start says', { timeout: 240_000 }, async () => {
  // Relative, as the default ./data is: the server (`pnpm dev`) and the tour's CLI must resolve it to one directory.
  const DATA_DIR = relative(repo, mkdtempSync(join(repo, 'apps/server/test-output/tour-')));
  const server = await spawnServer({ DATA_DIR }, { command: 'pnpm', args: ['run', '--silent', 'dev'], cwd: repo });
  try {
    const port = new URL(server.url).port;
    // Only the port differs from what a reader runs: the server here listens on a free one.
    const script = `set -euo pipefail\n${tourScript().replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`)}`;
    const run = spawnSync('bash', ['-c', script], { cwd: repo, env: { ...process.env, DATA_DIR, FORCE_COLOR: '0' }, encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/^mds: /m);
    expect(run.status).toBe(0);
    const out = run.stdout;
    expect(out).toContain('{"data":{"createTag":"urn:li:tag:pii"}}');
    expect(out).toMatch(/Wrote \d+ documents into 10 indices/);
    expect(out).toMatch(/dataset_datasetprofileaspect_v1/);
    expect(out).toMatch(/Delete \d+ out of \d+ rows \(\d+\.\d\d%\)\. .*This was a dry run\./);
    const sizes = JSON.parse(out.slice(out.lastIndexOf('\n[') + 1)) as { indexName: string }[];
    expect(sizes.map((s) => s.indexName)).toContain('dataset_datasetprofileaspect_v1');
  } finally {
    await server.stop(); // the whole process group: pnpm, sh and the server behind them
    rmSync(join(repo, DATA_DIR), { recursive: true, force: true });
  }
});
