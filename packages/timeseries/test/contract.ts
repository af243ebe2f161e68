import { afterEach, describe, expect, it } from 'vitest';
import type { TimeseriesStore, ValuesRequest } from '../src/port.ts';
import { prefixOf } from '../src/registry.ts';
import {
  INDEX as BASE_INDEX,
  OTHER_INDEX as BASE_OTHER_INDEX,
  apiError,
  doc as baseDoc,
  refOf,
  truncation as baseTruncation,
  waitForProgress,
  waitForTask,
  writeRange as baseWriteRange,
} from './helpers.ts';

/** What the contract needs from a backend: a fresh, empty place to store, reopenable on the same data. */
export interface StoreHarness {
  /** Opens the store (again) on this harness's data. */
  open(): Promise<TimeseriesStore>;
  /** Makes completed writes and deletions visible to counts and sizes (Elasticsearch: refresh). */
  settle?(): Promise<void>;
  /** Dies like a killed process: workers stopped mid-batch, nothing finalised (with `capabilities.crash`). */
  crash?(store: TimeseriesStore): Promise<void>;
  dispose(): Promise<void>;
}

export interface ContractCapabilities {
  /** The backend's tasks run inside mds, so a restart of mds cuts them short (and it can be simulated). */
  crash: boolean;
  /** The size of an index drops as soon as a truncation completes (not so with Lucene's lazy merges). */
  sizesShrinkPromptly: boolean;
  /** Rows per second that keep a truncation of a few thousand rows running for a second or so. */
  slowRowsPerSecond: number;
}

/**
 * The port's contract, run against every adapter: same inputs, same observable answers. A test that needs a
 * capability an adapter lacks (crash simulation) is only registered where it exists.
 */
export function describeStoreContract(name: string, capabilities: ContractCapabilities, makeHarness: () => Promise<StoreHarness>): void {
  describe(`TimeseriesStore contract: ${name}`, () => {
    let harness: StoreHarness;
    const opened: TimeseriesStore[] = [];
    // Index names under the store's prefix (a shared cluster is used with a prefix of its own per run).
    let INDEX = BASE_INDEX;
    let OTHER_INDEX = BASE_OTHER_INDEX;
    const doc = (n: number, options: { index?: string } = {}) => baseDoc(n, { index: options.index ?? INDEX });
    const writeRange = (store: TimeseriesStore, from: number, to: number, index = INDEX) => baseWriteRange(store, from, to, index);
    const truncation = (request: Parameters<typeof baseTruncation>[0]) => baseTruncation({ index: INDEX, ...request });

    async function fresh(): Promise<TimeseriesStore> {
      harness = await makeHarness();
      const store = await reopen();
      INDEX = prefixOf(store.indexPrefix) + BASE_INDEX;
      OTHER_INDEX = prefixOf(store.indexPrefix) + BASE_OTHER_INDEX;
      return store;
    }
    async function reopen(): Promise<TimeseriesStore> {
      const store = await harness.open();
      opened.push(store);
      return store;
    }
    const settle = async () => harness.settle?.();

    afterEach(async () => {
      for (const store of opened.splice(0)) await store.close().catch(() => undefined);
      await harness?.dispose();
    });

    it('counts written documents, and an index never written as empty', async () => {
      const store = await fresh();
      await writeRange(store, 1, 100);
      await settle();
      expect(await store.countForTruncation(INDEX, 40)).toEqual({ matching: 40, total: 100 });
      expect(await store.countForTruncation(INDEX, 0)).toEqual({ matching: 0, total: 100 });
      expect(await store.countForTruncation(OTHER_INDEX, 40)).toEqual({ matching: 0, total: 0 });
    });

    it('overwrites a document written again with the same identity', async () => {
      const store = await fresh();
      await store.write([doc(5), doc(6)]);
      await store.write([{ ...doc(5), eventJson: '{"timestampMillis":5,"rowCount":999}' }]);
      await settle();
      expect(await store.countForTruncation(INDEX, 10)).toEqual({ matching: 2, total: 2 });
    });

    describe("one urn's points", () => {
      const URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
      const OTHER_URN = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.customers,PROD)';
      const point = (n: number, urn = URN, index = INDEX) => ({ ...baseDoc(n, { urn, index }), index });
      /** URN at 10..50 in INDEX (40 with system metadata), at 20 and 60 in OTHER_INDEX; OTHER_URN at 30 and 40 in INDEX. */
      async function seed(store: TimeseriesStore) {
        await store.write([
          ...[10, 20, 30, 50].map((n) => point(n)),
          { ...point(40), systemMetadataJson: '{"runId":"r40","lastObserved":41}' },
          point(20, URN, OTHER_INDEX),
          point(60, URN, OTHER_INDEX),
          point(30, OTHER_URN),
          point(40, OTHER_URN),
        ]);
        await settle();
      }
      const times = async (store: TimeseriesStore, request: Partial<ValuesRequest> = {}) =>
        (await store.values({ index: INDEX, urn: URN, limit: 100, ...request })).map((v) => v.timestampMillis);

      it('values: newest first, with the value text and system metadata as written', async () => {
        const store = await fresh();
        await seed(store);
        const values = await store.values({ index: INDEX, urn: URN, limit: 100 });
        expect(values.map((v) => v.timestampMillis)).toEqual([50, 40, 30, 20, 10]);
        expect(values[0]).toEqual({ eventJson: point(50).eventJson, systemMetadataJson: null, timestampMillis: 50 });
        expect(JSON.parse(values[1]!.systemMetadataJson!)).toEqual({ runId: 'r40', lastObserved: 41 });
        expect(JSON.parse(values[1]!.eventJson)).toEqual(JSON.parse(point(40).eventJson));
      });

      it('values: window inclusive, limit, ascending order', async () => {
        const store = await fresh();
        await seed(store);
        expect(await times(store, { startTimeMillis: 20, endTimeMillis: 40 })).toEqual([40, 30, 20]);
        expect(await times(store, { startTimeMillis: 30 })).toEqual([50, 40, 30]);
        expect(await times(store, { endTimeMillis: 20 })).toEqual([20, 10]);
        expect(await times(store, { startTimeMillis: 31, endTimeMillis: 39 })).toEqual([]);
        expect(await times(store, { limit: 2 })).toEqual([50, 40]);
        expect(await times(store, { limit: 2, order: 'ASCENDING' })).toEqual([10, 20]);
        expect(await times(store, { order: 'DESCENDING', startTimeMillis: 20, endTimeMillis: 30 })).toEqual([30, 20]);
        expect(await times(store, { index: OTHER_INDEX, order: 'ASCENDING' })).toEqual([20, 60]);
        expect(await times(store, { urn: OTHER_URN })).toEqual([40, 30]);
      });

      it('values: nothing for an unknown urn or an index never written', async () => {
        const store = await fresh();
        expect(await store.values({ index: INDEX, urn: URN, limit: 10 })).toEqual([]);
        await seed(store);
        expect(await store.values({ index: INDEX, urn: `${URN}x`, limit: 10 })).toEqual([]);
        expect(
          await store.values({ index: prefixOf(store.indexPrefix) + 'chart_chartusagestatisticsaspect_v1', urn: URN, limit: 10 }),
        ).toEqual([]);
      });

      it("deleteByUrn: only that urn's points in the window and the indices named, answering the count", async () => {
        const store = await fresh();
        await seed(store);
        expect(await store.deleteByUrn({ urn: URN, indices: [INDEX], startTimeMillis: 20, endTimeMillis: 40 })).toBe(3);
        await settle();
        expect(await times(store)).toEqual([50, 10]);
        expect(await times(store, { index: OTHER_INDEX })).toEqual([60, 20]);
        expect(await times(store, { urn: OTHER_URN })).toEqual([40, 30]);
        expect(await store.deleteByUrn({ urn: URN, indices: [INDEX], startTimeMillis: 20, endTimeMillis: 40 })).toBe(0);
        expect(await store.deleteByUrn({ urn: URN, indices: [] })).toBe(0);
        // An index never written is skipped, not an error.
        const never = prefixOf(store.indexPrefix) + 'chart_chartusagestatisticsaspect_v1';
        expect(await store.deleteByUrn({ urn: URN, indices: [OTHER_INDEX, never], endTimeMillis: 20 })).toBe(1);
        await settle();
        expect(await times(store, { index: OTHER_INDEX })).toEqual([60]);
        expect(await store.countForTruncation(INDEX, 100)).toEqual({ matching: 4, total: 4 });
      });

      it('deleteByUrn: every index of the store when none are named', async () => {
        const store = await fresh();
        await seed(store);
        expect(await store.deleteByUrn({ urn: URN, startTimeMillis: 15 })).toBe(6);
        await settle();
        expect(await times(store)).toEqual([10]);
        expect(await times(store, { index: OTHER_INDEX })).toEqual([]);
        expect(await times(store, { urn: OTHER_URN })).toEqual([40, 30]);
        expect(await store.deleteByUrn({ urn: URN })).toBe(1);
        await settle();
        expect(await store.countForTruncation(INDEX, 100)).toEqual({ matching: 2, total: 2 });
      });
    });

    it('reports the size of every index written, and only those', async () => {
      const store = await fresh();
      await writeRange(store, 1, 3000);
      await writeRange(store, 1, 100, OTHER_INDEX);
      await settle();
      const sizes = await store.indexSizes();
      expect(sizes.map((s) => s.indexName).sort()).toEqual([OTHER_INDEX, INDEX].sort());
      const bytes = Object.fromEntries(sizes.map((s) => [s.indexName, s.sizeBytes]));
      expect(bytes[OTHER_INDEX]).toBeGreaterThan(0);
      expect(bytes[INDEX]).toBeGreaterThan(bytes[OTHER_INDEX]!);
    });

    it('truncates by delete: matching rows go, the others stay, the task reports the numbers', async () => {
      const store = await fresh();
      await writeRange(store, 1, 1000);
      await settle();
      const taskId = await store.startTruncation(truncation({ endTimeMillis: 300, batchSize: 64 }));
      expect(taskId).toMatch(/^[A-Za-z0-9_-]+:[1-9][0-9]*$/);
      const status = await waitForTask(store, taskId);
      expect(status).toMatchObject({ completed: true, taskId, status: { total: 300, deleted: 300 } });
      expect(status.error).toBeUndefined();
      expect(Number(status.status.batches)).toBeGreaterThanOrEqual(5);
      expect(status.runTimeNanos).toBeGreaterThan(0);
      await settle();
      expect(await store.countForTruncation(INDEX, 1000)).toEqual({ matching: 700, total: 700 });
      expect(await store.countForTruncation(INDEX, 300)).toEqual({ matching: 0, total: 700 });
    });

    it('truncates by reindex: only the survivors are left, and the index keeps taking writes', async () => {
      const store = await fresh();
      await writeRange(store, 1, 1000);
      await settle();
      const taskId = await store.startTruncation(truncation({ endTimeMillis: 800, mode: 'reindex', batchSize: 50 }));
      const status = await waitForTask(store, taskId);
      expect(status).toMatchObject({ completed: true, status: { total: 800, deleted: 800 } });
      expect(status.error).toBeUndefined();
      await store.write([doc(5000)]);
      await settle();
      expect(await store.countForTruncation(INDEX, 800)).toEqual({ matching: 0, total: 201 });
    });

    it('truncating an index never written completes with nothing to do', async () => {
      const store = await fresh();
      const taskId = await store.startTruncation(truncation({ index: OTHER_INDEX, endTimeMillis: 10, batchSize: 10 }));
      const status = await waitForTask(store, taskId);
      expect(status).toMatchObject({ completed: true, status: { deleted: 0 } });
      expect(status.error).toBeUndefined();
    });

    it('reports a task while it runs and after it completed; an unknown task is null', async () => {
      const store = await fresh();
      await writeRange(store, 1, 2000);
      await settle();
      const taskId = await store.startTruncation(truncation({ endTimeMillis: 1500, rowsPerSecond: capabilities.slowRowsPerSecond }));
      const running = await store.taskStatus(refOf(taskId));
      expect(running).toMatchObject({ completed: false, taskId });
      expect(running!.status).toHaveProperty('deleted');
      expect(await store.taskCounts()).toMatchObject({ running: 1, failed: 0 });
      const done = await waitForTask(store, taskId);
      expect(done).toMatchObject({ completed: true, taskId, status: { deleted: 1500 } });
      expect(await store.taskCounts()).toEqual({ running: 0, completed: 1, failed: 0 });
      expect(await store.taskStatus({ node: refOf(taskId).node, id: 987_654 })).toBeNull();
      expect(await store.taskStatus({ node: 'someOtherNode', id: 1 })).toBeNull();
    });

    it('refuses a second truncation of the same index while one runs (409 naming it), not of another index', async () => {
      const store = await fresh();
      await writeRange(store, 1, 2000);
      await writeRange(store, 1, 10, OTHER_INDEX);
      await settle();
      const first = await store.startTruncation(truncation({ endTimeMillis: 1500, rowsPerSecond: capabilities.slowRowsPerSecond }));
      const refused = await apiError(store.startTruncation(truncation({ endTimeMillis: 10, mode: 'reindex' })));
      expect(refused.status).toBe(409);
      expect(refused.message).toContain(first);
      const other = await store.startTruncation(truncation({ index: OTHER_INDEX, endTimeMillis: 5 }));
      expect((await waitForTask(store, other)).completed).toBe(true);
      expect((await waitForTask(store, first)).error).toBeUndefined();
      // Once the first one is done, the index can be truncated again.
      const again = await store.startTruncation(truncation({ endTimeMillis: 1600 }));
      expect(await waitForTask(store, again)).toMatchObject({ status: { deleted: 100 } });
    });

    it('task ids and their status outlive closing and reopening the store', async () => {
      const store = await fresh();
      await writeRange(store, 1, 100);
      await settle();
      const taskId = await store.startTruncation(truncation({ endTimeMillis: 50, batchSize: 10 }));
      const before = await waitForTask(store, taskId);
      await store.close();
      const reopened = await reopen();
      expect(await reopened.taskStatus(refOf(taskId))).toEqual(before);
    });

    if (capabilities.sizesShrinkPromptly) {
      it('an index takes less space once truncated', async () => {
        const store = await fresh();
        await writeRange(store, 1, 6000);
        const size = async () => (await store.indexSizes()).find((s) => s.indexName === INDEX)!.sizeBytes;
        const before = await size();
        await waitForTask(store, await store.startTruncation(truncation({ endTimeMillis: 3000, batchSize: 500 })));
        const afterDelete = await size();
        expect(afterDelete).toBeLessThan(before * 0.7);
        await waitForTask(store, await store.startTruncation(truncation({ endTimeMillis: 5500, mode: 'reindex', batchSize: 500 })));
        expect(await size()).toBeLessThan(afterDelete * 0.4);
      });
    }

    if (capabilities.crash) {
      it('a task cut short by a restart reports an error; the data is consistent and a new truncation succeeds', async () => {
        const store = await fresh();
        await writeRange(store, 1, 4000);
        for (const mode of ['delete', 'reindex'] as const) {
          const current = opened.at(-1)!;
          const before = await current.countForTruncation(INDEX, 3000);
          const taskId = await current.startTruncation({
            index: INDEX,
            endTimeMillis: 3000,
            mode,
            batchSize: 100,
            timeoutSeconds: 30,
            rowsPerSecond: capabilities.slowRowsPerSecond,
          });
          await waitForProgress(current, taskId, mode === 'delete' ? 'deleted' : 'created');
          await harness.crash!(current);

          const reopened = await reopen();
          const status = await reopened.taskStatus(refOf(taskId));
          expect(status).toMatchObject({ completed: true, taskId });
          expect(status!.error).toMatch(/interrupted/i);
          const deleted = Number(status!.status.deleted);
          // Committed batches stay deleted, everything else is intact; a reindex deletes nothing before its swap.
          if (mode === 'reindex') expect(deleted).toBe(0);
          expect(await reopened.countForTruncation(INDEX, 3000)).toEqual({
            matching: before.matching - deleted,
            total: before.total - deleted,
          });
        }
        const last = opened.at(-1)!;
        const retry = await last.startTruncation(truncation({ endTimeMillis: 3000, mode: 'reindex', batchSize: 500 }));
        const status = await waitForTask(last, retry);
        expect(status.error).toBeUndefined();
        expect(await last.countForTruncation(INDEX, 3000)).toEqual({ matching: 0, total: 1000 });
      });

      it('closing the store during a truncation stops it; after reopening it reports an error', async () => {
        const store = await fresh();
        await writeRange(store, 1, 3000);
        const taskId = await store.startTruncation(truncation({ endTimeMillis: 2500, rowsPerSecond: capabilities.slowRowsPerSecond }));
        await waitForProgress(store, taskId);
        await store.close();
        const reopened = await reopen();
        const status = await reopened.taskStatus(refOf(taskId));
        expect(status).toMatchObject({ completed: true });
        expect(status!.error).toMatch(/shut down/);
        const deleted = Number(status!.status.deleted);
        expect(await reopened.countForTruncation(INDEX, 3000)).toEqual({ matching: 3000 - deleted, total: 3000 - deleted });
      });
    }
  });
}
