import { Worker } from 'node:worker_threads';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** An error a worker reported, with SQLite's code when it had one (e.g. SQLITE_BUSY). */
export class WorkerError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
    this.name = 'WorkerError';
  }
}

/**
 * Request/response client of a long-lived worker thread (reader-worker.js, writer-worker.js): started on first
 * use, holding the process open only while a request is pending (so a CLI run ends by itself), and failing
 * pending requests rather than leaving them hanging if the worker dies.
 */
export class WorkerClient {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(
    private readonly script: URL,
    private readonly workerData: unknown,
  ) {}

  request<T>(message: Record<string, unknown>): Promise<T> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      if (this.pending.size === 1) worker.ref();
      worker.postMessage({ id, ...message });
    });
  }

  /** Lets the worker finish what it was asked, then close its connection. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.ref(); // an unreferenced worker would let the process end before close() resolves
    worker.postMessage('close');
    await exited;
  }

  /** Stops the worker without letting it close its connection (crash simulation in tests). */
  async kill(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.script, { workerData: this.workerData });
    worker.unref();
    worker.on('message', (reply: { id: number; result?: unknown; error?: string; code?: string }) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.error !== undefined) pending.reject(new WorkerError(reply.error, reply.code));
      else pending.resolve(reply.result);
    });
    const failAll = (error: Error) => {
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    worker.on('error', failAll);
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      failAll(new Error('A time-series database thread stopped.'));
    });
    this.worker = worker;
    return worker;
  }
}
