import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { CreateOutcome, CreateWorkerData } from './concurrency/create-worker';
import { openEntities, tempFile } from './fixtures';

const CREATES = 100;
// Threads run truly in parallel, each with its own connection (as a process would have) sending its share of creates.
const THREADS = 10;

describe('concurrent creates of one id', () => {
  it('let exactly one of 100 creates over 10 connections to the same file succeed; the others hear "This Tag already exists!"', async () => {
    const file = tempFile('entities.db');
    const entities = await openEntities(file); // migrated once up front, as the host does at start-up
    const barrier = new SharedArrayBuffer(8);
    const flags = new Int32Array(barrier);
    const workers = Array.from({ length: THREADS }, () => {
      const workerData: CreateWorkerData = { file, creates: CREATES / THREADS, barrier };
      return new Worker(new URL('./concurrency/boot.mjs', import.meta.url), { workerData });
    });
    const outcomes = workers.map(
      (worker) =>
        new Promise<CreateOutcome[]>((resolve, reject) => {
          worker.once('message', resolve);
          worker.once('error', reject);
        }),
    );
    while (Atomics.load(flags, 0) < THREADS) await new Promise((resolve) => setTimeout(resolve, 10));
    Atomics.store(flags, 1, 1);
    Atomics.notify(flags, 1);

    const all = (await Promise.all(outcomes)).flat();
    await Promise.all(workers.map((worker) => worker.terminate()));
    expect(all).toHaveLength(CREATES);
    expect(all.filter((o) => o.ok)).toEqual([{ ok: true, urn: 'urn:li:tag:contested' }]);
    expect(all.filter((o) => !o.ok)).toEqual(Array(CREATES - 1).fill({ ok: false, status: 400, message: 'This Tag already exists!' }));
    expect((await entities.search.search({ input: '*', entityTypes: ['tag'], start: 0, count: 10, facets: [] })).total).toBe(1);
    expect((await entities.store.versions('urn:li:tag:contested', 'tagProperties')).map((v) => v.version)).toEqual([0]);
  }, 240_000); // ten worker threads load the sources first: a bound for a hang, not for a busy machine
});
