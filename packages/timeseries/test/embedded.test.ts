import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedStore, openEmbeddedStore } from '../src/embedded/store.ts';
import { describeStoreContract } from './contract.ts';
import { INDEX, OTHER_INDEX, doc, refOf, tempDir, truncation, waitForProgress, waitForTask, writeRange } from './helpers.ts';

describeStoreContract('embedded SQLite', { crash: true, sizesShrinkPromptly: true, slowRowsPerSecond: 2_000 }, async () => {
  const { dir, remove } = tempDir();
  return {
    open: () => openEmbeddedStore({ file: join(dir, 'timeseries.db'), indexPrefix: '' }),
    crash: (store) => (store as EmbeddedStore).simulateCrash(),
    dispose: async () => remove(),
  };
});

describe('embedded store specifics', () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(prefix = '') {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = join(dir, 'timeseries.db');
    const store = await openEmbeddedStore({ file, indexPrefix: prefix });
    cleanups.push(() => store.close());
    return { store, file };
  }

  /** A second, plain connection to look at the file as it is. */
  function inspect(file: string) {
    const db = new Database(file, { readonly: true });
    cleanups.push(() => db.close());
    return db;
  }

  it('returns freed pages to the file system: the file shrinks after a truncation', async () => {
    const { store, file } = await open();
    await writeRange(store, 1, 20_000);
    const fileSize = () => statSync(file).size + statSync(`${file}-wal`, { throwIfNoEntry: false })!.size;
    const before = fileSize();
    await waitForTask(store, await store.startTruncation(truncation({ endTimeMillis: 18_000, mode: 'reindex', batchSize: 5000 })));
    // The worker vacuums and checkpoints right after completing the task.
    await expect.poll(() => statSync(file).size, { timeout: 10_000 }).toBeLessThan(before * 0.3);
  });

  it('keeps rows written while a reindex copies, and leaves no scratch table or trigger behind', async () => {
    const { store, file } = await open();
    await writeRange(store, 1, 3000);
    const taskId = await store.startTruncation(truncation({ endTimeMillis: 1000, mode: 'reindex', rowsPerSecond: 4000 }));
    await waitForProgress(store, taskId, 'created'); // the copy is past 1100 now
    // Written mid-copy: a survivor behind the copy's position, a rewrite of a row copied already, survivors ahead,
    // and an old row that must go too.
    await store.write([
      doc(1005, { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.new,PROD)' }),
      { ...doc(1050), eventJson: '{"timestampMillis":1050,"v":2}' },
      doc(10_000),
      doc(-5),
    ]);
    const status = await waitForTask(store, taskId);
    expect(status.error).toBeUndefined();
    expect(await store.countForTruncation(INDEX, 1000)).toEqual({ matching: 0, total: 2002 });
    const db = inspect(file);
    expect(db.prepare(`SELECT count(*) FROM "${INDEX}" WHERE timestampMillis = 1005`).pluck().get()).toBe(2);
    expect(db.prepare(`SELECT document FROM "${INDEX}" WHERE timestampMillis = 1050`).pluck().get()).toBe('{"timestampMillis":1050,"v":2}');
    expect(db.prepare(`SELECT name FROM sqlite_schema WHERE name LIKE '%aspect\\_v1\\_\\_%' ESCAPE '\\'`).pluck().all()).toEqual([]);
  });

  it('after a crash mid-reindex, reopening drops the half-built copy and its triggers', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = join(dir, 'timeseries.db');
    const store = await openEmbeddedStore({ file, indexPrefix: '' });
    await writeRange(store, 1, 3000);
    const taskId = await store.startTruncation(truncation({ endTimeMillis: 1000, mode: 'reindex', rowsPerSecond: 2000 }));
    await waitForProgress(store, taskId, 'created');
    await store.simulateCrash();
    const leftovers = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare(`SELECT type, name FROM sqlite_schema WHERE name LIKE '%aspect\\_v1\\_\\_%' ESCAPE '\\' ORDER BY name`).all();
      } finally {
        db.close();
      }
    };
    expect(leftovers()).toEqual([
      { type: 'table', name: `${INDEX}__reindex_1` },
      { type: 'trigger', name: `${INDEX}__reindex_1_delete` },
      { type: 'trigger', name: `${INDEX}__reindex_1_insert` },
      { type: 'trigger', name: `${INDEX}__reindex_1_update` },
    ]);
    const reopened = await openEmbeddedStore({ file, indexPrefix: '' });
    cleanups.push(() => reopened.close());
    expect(leftovers()).toEqual([]);
    expect((await reopened.taskStatus(refOf(taskId)))!.error).toMatch(/Interrupted: mds stopped/);
    await reopened.write([doc(4000)]); // the trigger is gone: writes do not fail on a missing copy
    expect(await reopened.countForTruncation(INDEX, 1000)).toEqual({ matching: 1000, total: 3001 });
  });

  it('keeps one node id, and numbers tasks on from where they were, across restarts', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = join(dir, 'timeseries.db');
    const first = await openEmbeddedStore({ file, indexPrefix: '' });
    const a = await first.startTruncation({ index: INDEX, endTimeMillis: 1, mode: 'delete', batchSize: 10, timeoutSeconds: 5 });
    await waitForTask(first, a);
    await first.close();
    const second = await openEmbeddedStore({ file, indexPrefix: '' });
    cleanups.push(() => second.close());
    const b = await second.startTruncation({ index: INDEX, endTimeMillis: 1, mode: 'delete', batchSize: 10, timeoutSeconds: 5 });
    expect(refOf(b)).toEqual({ node: refOf(a).node, id: refOf(a).id + 1 });
    expect(second.nodeId).toMatch(/^[A-Za-z0-9]{22}$/);
  });

  it('recomputes a cached size once the index is written, also by another connection', async () => {
    const { store, file } = await open();
    await writeRange(store, 1, 100);
    const size = async (s: EmbeddedStore) => (await s.indexSizes()).find((x) => x.indexName === INDEX)?.sizeBytes ?? 0;
    const small = await size(store);
    expect(await size(store)).toBe(small);
    const other = await openEmbeddedStore({ file, indexPrefix: '' });
    cleanups.push(() => other.close());
    await writeRange(other, 101, 5000);
    expect(await size(store)).toBeGreaterThan(small * 5);
  });

  it('lists only the indices of its own prefix', async () => {
    const { store, file } = await open('acme');
    await store.write([doc(1, { index: 'acme_dataset_operationaspect_v1' })]);
    const unprefixed = await openEmbeddedStore({ file, indexPrefix: '' });
    cleanups.push(() => unprefixed.close());
    await unprefixed.write([doc(1, { index: OTHER_INDEX })]);
    expect((await store.indexSizes()).map((s) => s.indexName)).toEqual(['acme_dataset_operationaspect_v1']);
  });

  it('keeps no secondary index on an index table: ingestion and truncation pay for none', async () => {
    const { store, file } = await open();
    await writeRange(store, 1, 100);
    const db = inspect(file);
    expect(db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = ?`).pluck().all(INDEX)).toEqual([]);
  });

  it('a point deleted by urn while a reindex copies does not come back with the copy', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = join(dir, 'timeseries.db');
    const store = await openEmbeddedStore({ file, indexPrefix: '' });
    await writeRange(store, 1, 3000);
    const urn = doc(7).urn; // every 7th timestamp
    const taskId = await store.startTruncation(truncation({ endTimeMillis: 1000, mode: 'reindex', rowsPerSecond: 4000 }));
    await waitForProgress(store, taskId, 'created'); // the copy is past 1100 now
    expect(await store.deleteByUrn({ urn })).toBe(428);
    expect((await waitForTask(store, taskId)).error).toBeUndefined();
    expect(await store.values({ index: INDEX, urn, limit: 10 })).toEqual([]);
    expect(await store.countForTruncation(INDEX, 3000)).toEqual({ matching: 2000 - 286, total: 2000 - 286 });
    await store.close();
    const reopened = await openEmbeddedStore({ file, indexPrefix: '' });
    cleanups.push(() => reopened.close());
    await reopened.write([doc(5000)]);
    expect((await reopened.values({ index: INDEX, urn: doc(5000).urn, limit: 1 }))[0]!.timestampMillis).toBe(5000);
  });

  it('writes a batch all or nothing', async () => {
    const { store } = await open();
    const broken = { ...doc(2), urn: null as unknown as string };
    await expect(store.write([doc(1), broken])).rejects.toThrow(/NOT NULL/);
    expect(await store.countForTruncation(INDEX, 10)).toEqual({ matching: 0, total: 0 });
  });
});
