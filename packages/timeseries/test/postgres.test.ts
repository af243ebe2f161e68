import type { SqlDatabase } from '@mds/db';
import { postgresTestDatabases } from '@mds/db/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openPostgresStore, type PostgresStore } from '../src/postgres/store.ts';
import { describeStoreContract } from './contract.ts';
import { INDEX, OTHER_INDEX, apiError, doc, refOf, truncation, waitForProgress, waitForTask, writeRange } from './helpers.ts';

// Short enough that a crashed store's tasks are taken for dead within the test; the defaults are 5 s and 60 s.
const HEARTBEAT_MS = 100;
const STALE_AFTER_MS = 1_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Long enough for a crashed store's tasks to go stale. */
const untilStale = () => sleep(STALE_AFTER_MS + 5 * HEARTBEAT_MS);

const databases = postgresTestDatabases();
afterAll(databases.dispose);

const open = (db: SqlDatabase, indexPrefix = '') =>
  openPostgresStore({ db, indexPrefix, heartbeatMs: HEARTBEAT_MS, staleAfterMs: STALE_AFTER_MS });

// Every opening is a replica of its own: a pool of its own on the same database.
describeStoreContract('PostgreSQL', { crash: true, sizesShrinkPromptly: false, slowRowsPerSecond: 2_000 }, async () => {
  const first = await databases.open();
  let opened = 0;
  return {
    open: async () => open(opened++ === 0 ? first : await databases.openAgain(first)),
    crash: async (store) => {
      await (store as PostgresStore).simulateCrash();
      await untilStale();
    },
    dispose: databases.closeOpened,
  };
});

describe('PostgreSQL store specifics', () => {
  const stores: PostgresStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await databases.closeOpened();
  });

  /** `n` replicas on one fresh database, and a handle to look at it. */
  async function replicas(n: number, indexPrefix = '') {
    const db = await databases.open();
    const opened: PostgresStore[] = [];
    for (let i = 0; i < n; i++) opened.push(await open(i === 0 ? db : await databases.openAgain(db), indexPrefix));
    stores.push(...opened);
    return { db, stores: opened };
  }
  const indexTables = async (db: SqlDatabase) =>
    (await db.all<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE tablename ~ '^timeseries_t[0-9]+$' ORDER BY 1`)).map(
      (r) => r.name,
    );
  const sizeOf = async (store: PostgresStore, index = INDEX) =>
    (await store.indexSizes()).find((s) => s.indexName === index)?.sizeBytes ?? 0;

  it('a task started on one replica is followed on another, blocks a second start there, and counts on both', async () => {
    const {
      stores: [a, b],
    } = await replicas(2);
    await writeRange(a!, 1, 2000);
    expect(b!.nodeId).toBe(a!.nodeId);
    const taskId = await a!.startTruncation(truncation({ endTimeMillis: 1500, rowsPerSecond: 2_000 }));
    expect(await b!.taskStatus(refOf(taskId))).toMatchObject({ completed: false, taskId });
    const refused = await apiError(b!.startTruncation(truncation({ endTimeMillis: 10 })));
    expect([refused.status, refused.message]).toEqual([409, expect.stringContaining(taskId)]);
    expect(await b!.taskCounts()).toEqual({ running: 1, completed: 0, failed: 0 });
    const done = await waitForTask(b!, taskId);
    expect(done).toMatchObject({ completed: true, status: { total: 1500, deleted: 1500 } });
    expect(done.error).toBeUndefined();
    expect(await a!.taskStatus(refOf(taskId))).toEqual(done);
    expect(await b!.countForTruncation(INDEX, 2000)).toEqual({ matching: 500, total: 500 });
    expect(await a!.taskCounts()).toEqual({ running: 0, completed: 1, failed: 0 });
  });

  it('documents and sizes are the same from every replica', async () => {
    const {
      stores: [a, b],
    } = await replicas(2);
    await writeRange(a!, 1, 500);
    await writeRange(b!, 1, 50, OTHER_INDEX);
    expect(await b!.values({ index: INDEX, urn: doc(7).urn, limit: 2 })).toEqual(
      await a!.values({ index: INDEX, urn: doc(7).urn, limit: 2 }),
    );
    expect((await b!.values({ index: INDEX, urn: doc(7).urn, limit: 1 }))[0]!.timestampMillis).toBe(497);
    const sizes = await a!.indexSizes();
    expect(sizes.map((s) => s.indexName).sort()).toEqual([OTHER_INDEX, INDEX].sort());
    expect(await b!.indexSizes()).toEqual(expect.arrayContaining(sizes));
  });

  it('replicas writing a new index at the same moment make one table for it', async () => {
    const { db, stores: all } = await replicas(4);
    await Promise.all(all.map((store, i) => store.write([doc(i + 1), doc(i + 100, { index: OTHER_INDEX })])));
    expect(await indexTables(db)).toHaveLength(2);
    expect(await all[0]!.countForTruncation(INDEX, 10)).toEqual({ matching: 4, total: 4 });
  });

  it("a crashed replica's reindex is marked failed by another, which drops its half-built copy", async () => {
    const {
      db,
      stores: [a, b],
    } = await replicas(2);
    await writeRange(a!, 1, 3000);
    const taskId = await a!.startTruncation(truncation({ endTimeMillis: 1000, mode: 'reindex', rowsPerSecond: 2_000 }));
    await waitForProgress(a!, taskId, 'created');
    await a!.simulateCrash();
    expect(await indexTables(db)).toHaveLength(2); // the index and the copy
    expect(await b!.taskStatus(refOf(taskId))).toMatchObject({ completed: false });
    await untilStale();
    const status = await b!.taskStatus(refOf(taskId));
    expect(status).toMatchObject({ completed: true, status: { deleted: 0 } });
    expect(status!.error).toMatch(/^Interrupted: the mds replica running the truncation stopped .* 0 of 1000 rows had been deleted/);
    await expect.poll(() => indexTables(db)).toHaveLength(1);
    await b!.write([doc(4000)]); // no longer mirrored into a dropped copy
    expect(await b!.countForTruncation(INDEX, 1000)).toEqual({ matching: 1000, total: 3001 });
    expect(await b!.taskCounts()).toEqual({ running: 0, completed: 0, failed: 1 });
  });

  it('a reindex keeps what other replicas write and delete while it copies, shrinks the index, and leaves no table behind', async () => {
    const {
      db,
      stores: [a, b],
    } = await replicas(2);
    await writeRange(a!, 1, 6000);
    const before = await sizeOf(b!);
    const taskId = await a!.startTruncation(truncation({ endTimeMillis: 4000, mode: 'reindex', rowsPerSecond: 2_000 }));
    await waitForProgress(b!, taskId, 'created'); // the copy is past 4100 now
    const urn = doc(7).urn; // every 7th timestamp
    await b!.write([
      doc(4005, { urn: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.new,PROD)' }), // behind the copy's position
      { ...doc(4050), eventJson: '{"timestampMillis":4050,"v":2}' }, // a rewrite of a row copied already
      doc(10_000), // ahead of it
      doc(-5), // old: goes with the others
    ]);
    const removed = await b!.deleteByUrn({ urn });
    expect(removed).toBe(857);
    const status = await waitForTask(b!, taskId);
    expect(status.error).toBeUndefined();
    expect(status.status).toMatchObject({ total: 4000, deleted: 4000 - 571 + 1 });
    expect(await b!.values({ index: INDEX, urn, limit: 10 })).toEqual([]);
    expect(await a!.countForTruncation(INDEX, 4000)).toEqual({ matching: 0, total: 2000 - 286 + 2 });
    const rewritten = await a!.values({ index: INDEX, urn: doc(4050).urn, startTimeMillis: 4050, endTimeMillis: 4050, limit: 1 });
    expect(rewritten[0]!.eventJson).toBe('{"timestampMillis":4050,"v":2}');
    await expect.poll(() => indexTables(db)).toHaveLength(1);
    expect(await sizeOf(a!)).toBeLessThan(before * 0.5);
    expect(await db.all('SELECT copy_table FROM timeseries_indices WHERE copy_table IS NOT NULL')).toEqual([]);
  });

  it('closing a replica fails its running task and drops its copy; the index can be truncated again from another', async () => {
    const {
      db,
      stores: [a, b],
    } = await replicas(2);
    await writeRange(a!, 1, 3000);
    const taskId = await a!.startTruncation(truncation({ endTimeMillis: 2000, mode: 'reindex', rowsPerSecond: 2_000 }));
    await waitForProgress(a!, taskId, 'created');
    await a!.close();
    expect((await b!.taskStatus(refOf(taskId)))!.error).toMatch(/shut down while the truncation was running; nothing was deleted/);
    expect(await indexTables(db)).toHaveLength(1);
    const again = await b!.startTruncation(truncation({ endTimeMillis: 2000, mode: 'reindex', batchSize: 500 }));
    expect(await waitForTask(b!, again)).toMatchObject({ status: { deleted: 2000 } });
  });

  it("names index tables by number, so a long prefix fits PostgreSQL's 63-byte names", async () => {
    const prefix = 'a-very-long-prefix-of-an-installation-with-many-environments';
    const {
      db,
      stores: [store],
    } = await replicas(1, prefix);
    const index = `${prefix}_dashboard_dashboardusagestatisticsaspect_v1`;
    expect(index.length).toBeGreaterThan(63);
    await store!.write([doc(1, { index }), doc(2, { index })]);
    expect(await store!.indexSizes()).toEqual([{ indexName: index, sizeBytes: expect.any(Number) }]);
    expect(await indexTables(db)).toEqual(['timeseries_t1']);
  });

  it('writes a batch all or nothing; a key given twice in one batch is written once, the last one', async () => {
    const {
      stores: [store],
    } = await replicas(1);
    const broken = { ...doc(2), urn: null as unknown as string };
    await expect(store!.write([doc(1), broken])).rejects.toThrow(/null value/);
    expect(await store!.countForTruncation(INDEX, 10)).toEqual({ matching: 0, total: 0 });
    await store!.write([doc(3), { ...doc(3), eventJson: '{"timestampMillis":3,"last":true}' }]);
    expect(await store!.values({ index: INDEX, urn: doc(3).urn, limit: 5 })).toEqual([
      { eventJson: '{"timestampMillis":3,"last":true}', systemMetadataJson: null, timestampMillis: 3 },
    ]);
  });
});
