import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { apiClient } from './support/api-client';
import { freshDataDir, rootTokenIn, spawnServer } from './support/child';

// `pnpm start`, `pnpm dev` and the benchmark run the bundle, not the sources: it must hold everything, including the
// packages' migrations and worker threads, which it finds next to their sources.
const root = fileURLToPath(new URL('..', import.meta.url));

it('the bundled server starts, migrates, ingests through its workers and truncates', { timeout: 120_000 }, async () => {
  // Its own folder: `dist` may be in use by the benchmark's smoke test, running beside this one.
  execFileSync(process.execPath, ['scripts/build.mjs', 'test-output/bundle'], { cwd: root });
  const bundle = `${root}test-output/bundle/mds.mjs`;
  expect(existsSync(bundle)).toBe(true);
  // V8 keeps each script's source in the heap, as UTF-16 (twice the bytes) once one character is outside Latin-1: the
  // bundle's files hold none (no comments, ASCII escapes), so they stay one byte a character.
  const files = [bundle, ...readdirSync(`${root}test-output/bundle/chunks`).map((f) => `${root}test-output/bundle/chunks/${f}`)];
  for (const file of files) {
    const wide = [...readFileSync(file, 'utf8')].filter((c) => c.codePointAt(0)! > 0xff);
    expect([file, wide.slice(0, 5)]).toEqual([file, []]);
  }
  const server = await spawnServer({ DATA_DIR: freshDataDir('bundle'), NODE_ENV: 'development' }, bundle);
  try {
    const token = rootTokenIn(server.stderr())!;
    const { post } = apiClient(server.url, `Bearer ${token}`);
    expect((await post('/api/graphql', { query: 'mutation { createTag(input: { id: "bundled", name: "b" }) }' })).body).toEqual({
      data: { createTag: 'urn:li:tag:bundled' },
    });
    const proposal = (t: number) => ({
      entityType: 'dataset',
      entityUrn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)',
      changeType: 'UPSERT',
      aspectName: 'operation',
      aspect: {
        contentType: 'application/json',
        value: JSON.stringify({ timestampMillis: t, operationType: 'INSERT', lastUpdatedTimestamp: t }),
      },
    });
    expect((await post('/aspects?action=ingestProposalBatch', { proposals: [1, 2, 3].map(proposal) })).status).toBe(200);
    const dry = await post('/gms/operations?action=truncateTimeseriesAspect', {
      entityType: 'dataset',
      aspect: 'operation',
      endTimeMillis: 2,
    });
    expect(dry.body.value).toMatch(/^Delete 2 out of 3 rows \(66\.67%\)\./);
  } finally {
    expect(await server.stop()).toBe(0);
  }
});
