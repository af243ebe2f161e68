import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { createTagStore } from '../src/index';
import type { CreateOutcome, CreateWorkerData } from './concurrency/create-worker';
import { tempDatabase } from './fixtures';

const CONNECTIONS = 100;
// Threads run truly in parallel, each driving its share of the connections; a few threads keep start-up quick.
const THREADS = 5;

describe('concurrent creates of one id', () => {
  it('let exactly one of 100 connections to the same file succeed; the others hear "This Tag already exists!"', async () => {
    const { db, file } = tempDatabase();
    createTagStore(db); // migrate once up front, as the host does at start-up
    const barrier = new SharedArrayBuffer(8);
    const flags = new Int32Array(barrier);
    const workers = Array.from({ length: THREADS }, () => {
      const workerData: CreateWorkerData = { file, connections: CONNECTIONS / THREADS, barrier };
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
    expect(all).toHaveLength(CONNECTIONS);
    expect(all.filter((o) => o.ok)).toEqual([{ ok: true, urn: 'urn:li:tag:contested' }]);
    expect(all.filter((o) => !o.ok)).toEqual(Array(CONNECTIONS - 1).fill({ ok: false, status: 400, message: 'This Tag already exists!' }));
    expect(db.prepare(`SELECT count(*) AS n FROM tags`).get()).toEqual({ n: 1 });
  }, 60_000);
});
