import { Privilege } from '@mds/auth';
import { openSqliteDatabase } from '@mds/db';
import { createEntities } from '@mds/entities';
import { parentPort, workerData } from 'node:worker_threads';
import { createTagService } from '../../src/index';

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
const store = createTagService(await createEntities({ db }));
const racer = { urn: 'urn:li:corpuser:racer', privileges: new Set<string>([Privilege.CREATE_TAGS]) };
const flags = new Int32Array(barrier);
Atomics.add(flags, 0, 1);
Atomics.wait(flags, 1, 0);

const outcomes: CreateOutcome[] = await Promise.all(
  Array.from({ length: creates }, async (_, i): Promise<CreateOutcome> => {
    try {
      return { ok: true, urn: (await store.create({ id: 'contested', name: `Create ${i}` }, racer)).urn };
    } catch (error) {
      return { ok: false, status: (error as { status?: number }).status, message: (error as Error).message };
    }
  }),
);
await db.close();
parentPort!.postMessage(outcomes);
