import { ROOT_ACTOR_URN } from '@mds/auth';
import { openSqliteDatabase } from '@mds/db';
import { aspectSpec } from '@mds/core';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonArrayElements } from '../src/cli/json-array';
import { compose } from '../src/compose';
import { loadConfig } from '../src/config';
import { freshDataDir, runCli, spawnServer, type ChildServer } from './support/child';

// `mds ingest` as a user runs it on DataHub's files: a child process, on DATA_DIR or against --url.
const FIXTURES = fileURLToPath(new URL('../../../packages/entities/test/fixtures/datahub/', import.meta.url));
const BOOTSTRAP = join(FIXTURES, 'bootstrap_mce.json');
const KAFKA = join(FIXTURES, 'kafka_without_schemas_mces_golden.json');
const SAMPLE_KAFKA = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)';

/** A data directory's latest value of an aspect, read through the same composition the server uses. */
async function readAspect(DATA_DIR: string, urn: string, aspect: string) {
  const domains = await compose(loadConfig({ DATA_DIR, NODE_ENV: 'test' }));
  try {
    return (await domains.entities.store.get(urn, aspect))?.value;
  } finally {
    for (const module of [...domains.modules].reverse()) await module.close?.();
  }
}

async function* chunks(...parts: string[]) {
  for (const part of parts) yield part;
}
const elements = async (...parts: string[]) => {
  const out: unknown[] = [];
  for await (const element of jsonArrayElements(chunks(...parts))) out.push(element);
  return out;
};

describe('the streaming JSON array reader', () => {
  it('yields each element, whatever the chunk boundaries cut (strings, escapes, nesting)', async () => {
    const items = [{ a: 'x,]}"\\' }, [1, [2, { b: '[' }]], 'plain', 3, null];
    const text = JSON.stringify(items, null, 2);
    for (const size of [1, 2, 3, 7, 64]) {
      const parts = Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
      expect(await elements(...parts), `chunks of ${size}`).toEqual(items);
    }
    expect(await elements(' [ ] ')).toEqual([]);
  });

  it('yields an element before the rest of the file is read (it streams)', async () => {
    async function* endless() {
      yield '[{"first":1},';
      for (;;) yield '{"more":true},';
    }
    const reader = jsonArrayElements(endless());
    expect((await reader.next()).value).toEqual({ first: 1 });
    await reader.return(undefined);
  });

  it('refuses what is not one JSON array', async () => {
    await expect(elements('{"a":1}')).rejects.toThrow('The file is not a JSON array (it must start with "[")');
    await expect(elements('[1,2')).rejects.toThrow('The JSON array is not closed (the file ends early)');
    await expect(elements('[1] [2]')).rejects.toThrow('Unexpected data after the JSON array');
    await expect(elements('[1,}')).rejects.toThrow(SyntaxError);
  });
});

describe('mds ingest on DATA_DIR', () => {
  it("loads DataHub's files (MCEs in Avro JSON, MCPs with aspect.json and PATCH), prints the summary, exits 0", async () => {
    const DATA_DIR = freshDataDir('cli-ingest');
    const { code, stdout, stderr } = await runCli(['ingest', BOOTSTRAP, KAFKA, '--batch-size', '40'], { DATA_DIR });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Read 121 items \(\d+ aspects\)\.\nWritten: \d+\nUnchanged: \d+\nFailed: 0\n$/);
    const owners = (await readAspect(DATA_DIR, SAMPLE_KAFKA, 'ownership')) as { owners: { owner: string }[] };
    expect(owners.owners.map((o) => o.owner)).toContain('urn:li:corpuser:jdoe');

    // The same files again: nothing new to write.
    const again = await runCli(['ingest', BOOTSTRAP], { DATA_DIR });
    expect(again.stdout).toMatch(/^Read 97 items \(\d+ aspects\)\.\nWritten: \d+\nUnchanged: \d+\nFailed: 0\n$/);
    // Only its time-series points are written again (a point is overwritten); every versioned aspect is unchanged.
    const items: { aspectName?: string }[] = JSON.parse(readFileSync(BOOTSTRAP, 'utf8'));
    const points = items.filter((item) => item.aspectName && aspectSpec(item.aspectName)?.kind === 'timeseries').length;
    expect(points).toBeGreaterThan(0);
    expect(Number(/Written: (\d+)/.exec(again.stdout)![1])).toBe(points);
  });

  it('writes the good items of a refused batch, names each bad one with its reason, and exits 1', async () => {
    const DATA_DIR = freshDataDir('cli-ingest-bad');
    const file = join(DATA_DIR, 'mixed.json');
    const status = (name: string, more: Record<string, unknown> = {}) => ({
      entityType: 'dataset',
      entityUrn: `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`,
      changeType: 'UPSERT',
      aspectName: 'status',
      aspect: { json: { removed: false } },
      ...more,
    });
    writeFileSync(
      file,
      JSON.stringify([status('a'), status('b', { aspectName: 'chartInfo' }), status('c'), status('d', { entityType: 'spaceship' })]),
    );
    const { code, stdout } = await runCli(['ingest', file], { DATA_DIR });
    expect(code).toBe(1);
    expect(stdout).toBe(
      [
        'Read 4 items (4 aspects).',
        'Written: 2',
        'Unchanged: 0',
        'Failed: 2',
        `  ${file}[1]: Unknown aspect chartInfo for entity dataset`,
        `  ${file}[3]: Unknown entity: spaceship`,
        '',
      ].join('\n'),
    );
    expect(await readAspect(DATA_DIR, 'urn:li:dataset:(urn:li:dataPlatform:hive,c,PROD)', 'status')).toEqual({ removed: false });
  });

  it('refuses a file that is not a JSON array, or missing, with a clear message', async () => {
    const DATA_DIR = freshDataDir('cli-ingest-junk');
    const file = join(DATA_DIR, 'junk.json');
    writeFileSync(file, '{"not":"an array"}');
    expect(await runCli(['ingest', file], { DATA_DIR })).toMatchObject({
      code: 1,
      stderr: `mds: ${file}: The file is not a JSON array (it must start with "[")\n`,
    });
    expect(await runCli(['ingest', join(DATA_DIR, 'nope.json')], { DATA_DIR })).toMatchObject({
      code: 1,
      stderr: `mds: cannot read ${join(DATA_DIR, 'nope.json')}: no such file\n`,
    });
  });
});

describe('mds ingest --url', () => {
  let server: ChildServer;
  let token: string;
  let DATA_DIR: string;
  beforeAll(async () => {
    DATA_DIR = freshDataDir('cli-ingest-remote');
    const domains = await compose(loadConfig({ DATA_DIR, NODE_ENV: 'test' }));
    try {
      token = (await domains.auth.service.tokens.create({ actorUrn: ROOT_ACTOR_URN, duration: 'ONE_DAY', name: 'cli-ingest' })).accessToken;
    } finally {
      for (const module of [...domains.modules].reverse()) await module.close?.();
    }
    server = await spawnServer({ DATA_DIR });
  });
  afterAll(() => server?.stop());

  it('sends the files to the server in batches and reads them back over HTTP', async () => {
    const { code, stdout } = await runCli(['ingest', KAFKA, '--url', server.url, '--token', token], {
      DATA_DIR: '/nonexistent/mds-cli-remote',
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Read 24 items \(24 aspects\)\.\nAccepted: 24\nFailed: 0\n$/);
    const res = await fetch(
      `${server.url}/aspects/${encodeURIComponent('urn:li:dataset:(urn:li:dataPlatform:kafka,key_value_topic,PROD)')}?aspect=status&version=0`,
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(res.status).toBe(200);
  });

  it('stops with the reason when the token is refused', async () => {
    const { code, stderr } = await runCli(['ingest', KAFKA, '--url', server.url, '--token', 'nope'], {});
    expect(code).toBe(1);
    expect(stderr).toMatch(/^mds: .*\(HTTP 401 from http:\/\/127\.0\.0\.1:\d+\)\n$/);
  });
});

describe('mds reindex', () => {
  it('rebuilds the search index from the stored aspects', async () => {
    const DATA_DIR = freshDataDir('cli-reindex');
    expect((await runCli(['ingest', KAFKA], { DATA_DIR })).code).toBe(0);
    // Lose the index behind the store's back, as a crash of an older mds or a hand-edited file would.
    const domains = await compose(loadConfig({ DATA_DIR, NODE_ENV: 'test' }));
    const searchAll = () => domains.entities.search.search({ input: '*', start: 0, count: 100, facets: [] });
    try {
      const before = await searchAll();
      expect(before.total).toBe(10); // three topics, the three tags they carry, DataHub's root user and its 3 all-users policies
      const db = openSqliteDatabase(join(DATA_DIR, 'entities.db'));
      await db.run('DELETE FROM search_document');
      await db.close();
      expect((await searchAll()).total).toBe(0);
    } finally {
      for (const module of [...domains.modules].reverse()) await module.close?.();
    }
    const { code, stdout } = await runCli(['reindex'], { DATA_DIR });
    expect([code, stdout]).toEqual([0, expect.stringMatching(/^Reindexed 10 entities in \d+\.\d s\.\n$/)]);
    const again = await compose(loadConfig({ DATA_DIR, NODE_ENV: 'test' }));
    try {
      const found = await again.entities.search.search({ input: '*', start: 0, count: 100, facets: [], entityTypes: ['dataset'] });
      expect(found.hits.map((h) => h.urn).sort()).toEqual([
        'urn:li:dataset:(urn:li:dataPlatform:kafka,key_topic,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:kafka,key_value_topic,PROD)',
        'urn:li:dataset:(urn:li:dataPlatform:kafka,value_topic,PROD)',
      ]);
    } finally {
      for (const module of [...again.modules].reverse()) await module.close?.();
    }
  });
});
