import { openDatabase } from '@mds/db';
import { parentPort, workerData } from 'node:worker_threads';
import { createTagStore } from '../../src/index';

export interface CreateWorkerData {
  file: string;
  connections: number;
  /** [workers ready, go]: each worker counts itself in, then waits for the go. */
  barrier: SharedArrayBuffer;
}

export type CreateOutcome = { ok: true; urn: string } | { ok: false; status?: number; message: string };

// Each connection is its own better-sqlite3 handle with its own store, exactly as separate processes would have.
const { file, connections, barrier } = workerData as CreateWorkerData;
const databases = Array.from({ length: connections }, () => openDatabase(file));
const stores = databases.map((db) => createTagStore(db));
const flags = new Int32Array(barrier);
Atomics.add(flags, 0, 1);
Atomics.wait(flags, 1, 0);

const outcomes: CreateOutcome[] = stores.map((store, i) => {
  try {
    return { ok: true, urn: store.create({ id: 'contested', name: `Worker ${i}` }, 'urn:li:corpuser:racer').urn };
  } catch (error) {
    return { ok: false, status: (error as { status?: number }).status, message: (error as Error).message };
  }
});
for (const db of databases) db.close();
parentPort!.postMessage(outcomes);
