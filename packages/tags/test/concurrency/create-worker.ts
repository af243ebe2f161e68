import { openSqliteDatabase } from '@mds/db';
import { createAspectStore } from '@mds/entities';
import { createSqlSearchIndex } from '@mds/search';
import { parentPort, workerData } from 'node:worker_threads';
import { createTagStore } from '../../src/index';

export interface CreateWorkerData {
  file: string;
  creates: number;
  /** [workers ready, go]: each worker counts itself in, then waits for the go. */
  barrier: SharedArrayBuffer;
}

export type CreateOutcome = { ok: true; urn: string } | { ok: false; status?: number; message: string };

// One connection per thread, as a separate process would have (the host migrated the file already).
const { file, creates, barrier } = workerData as CreateWorkerData;
const db = openSqliteDatabase(file);
const search = createSqlSearchIndex(db);
const store = createTagStore({ store: createAspectStore(db, { search }), search });
const flags = new Int32Array(barrier);
Atomics.add(flags, 0, 1);
Atomics.wait(flags, 1, 0);

const outcomes: CreateOutcome[] = await Promise.all(
  Array.from({ length: creates }, async (_, i): Promise<CreateOutcome> => {
    try {
      return { ok: true, urn: (await store.create({ id: 'contested', name: `Create ${i}` }, 'urn:li:corpuser:racer')).urn };
    } catch (error) {
      return { ok: false, status: (error as { status?: number }).status, message: (error as Error).message };
    }
  }),
);
await db.close();
parentPort!.postMessage(outcomes);
