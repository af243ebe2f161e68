import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { freshDataDir, spawnServer } from './support/child';

// The README's commands are documentation people paste: each sh block runs here as written, so none can rot. Each
// block is marked (`<!-- name -->` on the line before it) with what this file does with it.
const repo = fileURLToPath(new URL('../../../', import.meta.url));

/** Every ```sh block of the README, by the marker on the line before it ('' when unmarked). */
function shBlocks(): { marker: string; script: string }[] {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  return [...readme.matchAll(/(?:<!-- ([\w-]+) -->\n)?```sh\n([\s\S]*?)```/g)].map((m) => ({ marker: m[1] ?? '', script: m[2]! }));
}

const block = (marker: string) => {
  const found = shBlocks().find((b) => b.marker === marker);
  if (!found) throw new Error(`README.md has no <!-- ${marker} --> sh block`);
  return found.script;
};
const tourScript = () => block('tour');

it('every sh block of the README is one this file runs or checks', () => {
  // quick-start: its first line is how the tour starts its server (`pnpm run dev`), its second is the command that runs
  // this very file, checked below; tour and elasticsearch run; replicas runs in replicas-readme.e2e.test.ts.
  expect(shBlocks().map((b) => b.marker)).toEqual(['quick-start', 'tour', 'elasticsearch', 'replicas']);
  const pnpm = 'npx -y pnpm@10.34.9';
  expect(block('quick-start')).toBe(`${pnpm} install && ${pnpm} dev\n${pnpm} install && ${pnpm} test\n`);
  const { scripts } = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(scripts.test).toBe('node scripts/test.mjs');
  expect(scripts.dev).toMatch(/ serve$/);
});

it(
  'the Elasticsearch block starts mds, which reports the unreachable cluster on /health and keeps serving',
  { timeout: 240_000 },
  async () => {
    // The cluster of the example does not exist here: point it at a closed local port; the secrets are made up.
    const script = block('elasticsearch')
      .replace('https://user:pass@es.internal:9200', 'http://user:pass@127.0.0.1:9')
      .replaceAll('…', 'x'.repeat(40));
    const server = await spawnServer(
      { DATA_DIR: freshDataDir('readme-es'), ELASTICSEARCH_TIMEOUT_MS: '1000' },
      { command: 'bash', args: ['-c', script], cwd: repo },
    );
    try {
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(503);
      expect(((await health.json()) as { reason: string }).reason).toMatch(/127\.0\.0\.1:9/);
    } finally {
      await server.stop();
    }
  },
);

it('the README tour runs from start to finish against a server started as Quick start says', { timeout: 240_000 }, async () => {
  // Relative, as the default ./data is: the server (`pnpm dev`) and the tour's CLI must resolve it to one directory.
  const parent = join(repo, 'apps/server/test-output');
  mkdirSync(parent, { recursive: true }); // this test may be the first (or only) one to run
  const DATA_DIR = relative(repo, mkdtempSync(join(parent, 'tour-')));
  const server = await spawnServer({ DATA_DIR }, { command: 'npx', args: ['-y', 'pnpm@10.34.9', 'run', '--silent', 'dev'], cwd: repo });
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
    const sizesAt = out.lastIndexOf('\n[') + 1;
    const sizes = JSON.parse(out.slice(sizesAt, out.indexOf('\n]', sizesAt) + 2)) as { indexName: string }[];
    expect(sizes.map((s) => s.indexName)).toContain('dataset_datasetprofileaspect_v1');
    expect(out).toMatch(/^Read 97 items \(\d+ aspects\)\.\nAccepted: \d+\nFailed: 0$/m);
    const entity = JSON.parse(out.slice(out.lastIndexOf('\n{') + 1)) as { entityName: string; aspects: Record<string, { value: unknown }> };
    expect(entity.entityName).toBe('dataset');
    expect(Object.keys(entity.aspects).sort()).toEqual(['datasetKey', 'ownership', 'schemaMetadata']);
  } finally {
    await server.stop(); // the whole process group: pnpm, sh and the server behind them
    rmSync(join(repo, DATA_DIR), { recursive: true, force: true });
  }
});
