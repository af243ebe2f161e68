import { Worker } from 'node:worker_threads';
import type { WriteOutcome, WriteStatement } from './connection.js';

export type { WriteOutcome, WriteStatement };

/** A write that failed on the writer thread, with SQLite's code when it had one (e.g. SQLITE_CONSTRAINT_PRIMARYKEY). */
export class WriteError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'WriteError';
  }
}

export interface WriterThread {
  /** Runs one statement in the next group transaction; settles once that transaction is durable. */
  run(write: WriteStatement): Promise<WriteOutcome>;
  /** Lets every queued write commit, then closes the thread's connection. */
  close(): Promise<void>;
}

type Pending = { write: WriteStatement; resolve(outcome: WriteOutcome): void; reject(error: Error): void };
type Reply = { results: ({ outcome: WriteOutcome } | { error: { message: string; code?: string } })[] } | { error: { message: string; code?: string } };

/**
 * Group commit on a thread of its own. Writes queued while the thread commits (and fsyncs) the previous batch go
 * together in the next one, so concurrent writers share one fsync, and the event loop keeps serving requests while
 * the disk syncs instead of blocking in COMMIT. Each write runs in its own savepoint: one that fails is rolled back
 * and rejected alone. Nothing is acknowledged before its transaction committed with synchronous=FULL.
 *
 * The thread starts on the first write and holds the process open only while writes are pending.
 */
export function createWriterThread(file: string): WriterThread {
  let worker: Worker | undefined;
  let queue: Pending[] = [];
  let inFlight: Pending[] | undefined;
  let drained: (() => void) | undefined;

  const start = (): Worker => {
    if (worker) return worker;
    const started = new Worker(new URL('./writer-worker.js', import.meta.url), { workerData: { file } });
    started.on('message', (reply: Reply) => settle(reply));
    started.on('error', (error) => fail(error));
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      fail(new Error(`The writer thread of ${file} stopped.`));
    });
    return (worker = started);
  };

  const send = () => {
    if (inFlight) return;
    if (queue.length === 0) return void drained?.();
    inFlight = queue;
    queue = [];
    const thread = start();
    thread.ref();
    thread.postMessage({ writes: inFlight.map((p) => p.write) });
  };

  const settle = (reply: Reply) => {
    const batch = inFlight ?? [];
    inFlight = undefined;
    if ('results' in reply) {
      reply.results.forEach((result, i) =>
        'outcome' in result ? batch[i]!.resolve(result.outcome) : batch[i]!.reject(new WriteError(result.error.message, result.error.code)),
      );
    } else {
      for (const pending of batch) pending.reject(new WriteError(reply.error.message, reply.error.code));
    }
    if (queue.length === 0) worker?.unref();
    send(); // what queued up during this commit
  };

  const fail = (error: Error) => {
    const lost = [...(inFlight ?? []), ...queue];
    inFlight = undefined;
    queue = [];
    for (const pending of lost) pending.reject(error);
    drained?.();
  };

  return {
    run(write) {
      return new Promise<WriteOutcome>((resolve, reject) => {
        // The first write of a turn waits for the turn to end, so the other requests read in it join its batch.
        if (queue.push({ write, resolve, reject }) === 1 && !inFlight) setImmediate(send);
      });
    },
    async close() {
      if (inFlight || queue.length) await new Promise<void>((resolve) => (drained = resolve));
      const thread = worker;
      worker = undefined;
      if (!thread) return;
      const exited = new Promise((resolve) => thread.once('exit', resolve));
      thread.ref();
      thread.postMessage('close');
      await exited;
    },
  };
}
