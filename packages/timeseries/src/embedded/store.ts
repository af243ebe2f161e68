import { conflict, unavailable } from '@mds/schema';
import { applyMigrations, openDatabase, type SqliteDatabase } from '@mds/db';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type {
  DeleteByUrnRequest,
  IndexSize,
  TaskCounts,
  TaskRef,
  TaskStatus,
  TimeseriesDocument,
  TimeseriesStore,
  TimeseriesValue,
  TruncationCount,
  TruncationRequest,
  ValuesRequest,
} from '../port.ts';
import { parseIndexName } from '../registry.ts';
import { VERSIONS_TABLE, createIndexTableSql, whileWriting } from './sql.js';
import { toTaskStatus } from '../task-status.ts';
import { TaskTable, nodeIdOf } from './tasks.ts';
import { WorkerClient, WorkerError } from './worker-client.ts';

export interface EmbeddedStoreOptions {
  /** `<dataDir>/timeseries.db`: its own file, so a truncation never holds the lock tag and token writes need. */
  file: string;
  indexPrefix: string;
}

interface RunningWorker {
  worker: Worker;
  stopFlag: SharedArrayBuffer;
  exited: Promise<void>;
}

/** Quiet time after the last write before written tables are measured in the background. */
const MEASURE_AFTER_IDLE_MS = 1_000;
/** How long close() lets a worker finish its current batch before terminating it. */
const STOP_GRACE_MS = 10_000;

/** Opens (creating and migrating if needed) the embedded store, and cleans up after a crash. */
export async function openEmbeddedStore(options: EmbeddedStoreOptions): Promise<EmbeddedStore> {
  const db = openDatabase(options.file);
  try {
    useIncrementalVacuum(db);
    applyMigrations(db, { folder: fileURLToPath(new URL('../../migrations/sqlite', import.meta.url)), owner: 'timeseries' });
    // After a large truncation, a checkpoint cuts the WAL back to this size instead of leaving it at its peak.
    db.pragma('journal_size_limit = 67108864');
    return new EmbeddedStore(db, options);
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Inclusive bounds on timestampMillis, a side left open reaching as far as any stored timestamp. */
function windowOf(request: { startTimeMillis?: number; endTimeMillis?: number }): { from: number; to: number } {
  return { from: request.startTimeMillis ?? Number.MIN_SAFE_INTEGER, to: request.endTimeMillis ?? Number.MAX_SAFE_INTEGER };
}

/** A writer-thread failure as the 503 it means (lock held too long, disk full), or as is. */
function storageError(error: unknown, what: 'write' | 'delete'): unknown {
  const code = error instanceof WorkerError ? error.code : undefined;
  if (code?.startsWith('SQLITE_BUSY')) return unavailable(`The time-series database stayed locked for 5 seconds; retry the ${what}.`);
  if (code === 'SQLITE_FULL') return unavailable('The disk holding the time-series database is full.');
  return error;
}

/**
 * Freed pages must go back to the file system, or the file never shrinks after a truncation. auto_vacuum can only
 * be switched on before the first table exists, or by a VACUUM: instant on a new file, once on an older one.
 */
function useIncrementalVacuum(db: SqliteDatabase): void {
  const INCREMENTAL = 2;
  if (db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return;
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
}

/**
 * The embedded adapter: one SQLite table per index. Everything heavy runs on worker threads with connections of
 * their own — writes and deletes by urn (writer-worker.js), counts, sizes and reads by urn (reader-worker.js),
 * truncations (one truncate-worker.js each) — so the event loop only ever does small reads (task rows, the schema)
 * and never waits for a lock.
 */
export class EmbeddedStore implements TimeseriesStore {
  readonly kind = 'embedded';
  readonly indexPrefix: string;
  readonly nodeId: string;
  private readonly file: string;
  private readonly instanceId = randomUUID();
  private readonly tasks: TaskTable;
  private readonly reader: WorkerClient;
  private readonly writer: WorkerClient;
  /** Shared with every worker: writers waiting for the write lock, whom truncations let go first. */
  private readonly contention = new SharedArrayBuffer(4);
  private readonly workers = new Map<number, RunningWorker>();
  /** Bytes per index table, valid while the table's version is unchanged. */
  private readonly sizeCache = new Map<string, { version: number; bytes: number }>();
  private readonly readVersions;
  private readonly listTables;
  private measuring: Promise<void> | undefined;
  private measureTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly db: SqliteDatabase,
    options: EmbeddedStoreOptions,
  ) {
    this.file = options.file;
    this.indexPrefix = options.indexPrefix;
    this.nodeId = nodeIdOf(db);
    this.tasks = new TaskTable(db, this.instanceId, (taskNo) => this.workers.has(taskNo), this.contention);
    this.tasks.recover();
    this.reader = new WorkerClient(new URL('./reader-worker.js', import.meta.url), { file: this.file });
    this.writer = new WorkerClient(new URL('./writer-worker.js', import.meta.url), { file: this.file, contention: this.contention });
    this.readVersions = db.prepare(`SELECT name, version FROM ${VERSIONS_TABLE}`).raw();
    this.listTables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '%aspect\\_v1' ESCAPE '\\'`).pluck();
  }

  async write(documents: readonly TimeseriesDocument[]): Promise<void> {
    this.assertOpen();
    if (documents.length === 0) return;
    const rows = documents.map((d) => [
      d.index,
      d.timestampMillis,
      d.id,
      d.urn,
      d.eventGranularity,
      d.messageId,
      d.partitionSpec === null ? null : JSON.stringify(d.partitionSpec),
      d.runId,
      d.eventJson,
      d.systemMetadataJson,
    ]);
    try {
      await this.writer.request({ op: 'write', rows });
    } catch (error) {
      throw storageError(error, 'write');
    }
    this.measureSoon();
  }

  async indexSizes(): Promise<IndexSize[]> {
    this.assertOpen();
    await this.measureStaleTables();
    return this.indexTables().map((indexName) => ({ indexName, sizeBytes: this.sizeCache.get(indexName)?.bytes ?? 0 }));
  }

  async values(request: ValuesRequest): Promise<TimeseriesValue[]> {
    this.assertOpen();
    if (request.limit <= 0) return [];
    return this.reader.request<TimeseriesValue[]>({
      op: 'values',
      index: request.index,
      urn: request.urn,
      ...windowOf(request),
      limit: request.limit,
      direction: request.order === 'ASCENDING' ? 'ASC' : 'DESC',
    });
  }

  async deleteByUrn(request: DeleteByUrnRequest): Promise<number> {
    this.assertOpen();
    const tables = request.indices ? [...request.indices] : this.indexTables();
    if (tables.length === 0) return 0;
    let deleted: number;
    try {
      deleted = await this.writer.request<number>({ op: 'deleteByUrn', tables, urn: request.urn, ...windowOf(request) });
    } catch (error) {
      throw storageError(error, 'delete');
    }
    if (deleted > 0) this.measureSoon();
    return deleted;
  }

  async countForTruncation(index: string, endTimeMillis: number): Promise<TruncationCount> {
    this.assertOpen();
    return this.reader.request<TruncationCount>({ op: 'count', index, endTimeMillis });
  }

  async startTruncation(request: TruncationRequest): Promise<string> {
    this.assertOpen();
    const taskNo = whileWriting(this.contention, () =>
      this.db
        .transaction(() => {
          const running = this.tasks.liveOnIndex(request.index)[0];
          if (running) {
            throw conflict(
              `A truncation of ${request.index} is already running as task ${this.nodeId}:${running.id}; ` +
                'wait for it to complete (poll getEsTaskStatus) before starting another.',
            );
          }
          // An index never written is truncated like an empty one: the task completes at once with nothing to do.
          this.db.exec(createIndexTableSql(request.index));
          return this.tasks.create(request);
        })
        .immediate(),
    );
    this.spawn(taskNo, request);
    return `${this.nodeId}:${taskNo}`;
  }

  async taskStatus(task: TaskRef): Promise<TaskStatus | null> {
    this.assertOpen();
    if (task.node !== this.nodeId) return null;
    const row = this.tasks.get(task.id);
    return row ? toTaskStatus(this.nodeId, this.tasks.settle(row)) : null;
  }

  /** Stops running truncations after their current batch (they report an error), then closes the database. */
  /** A local file that opened is ready. */
  async checkReady(): Promise<void> {}

  async taskCounts(): Promise<TaskCounts> {
    return this.tasks.counts();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.measureTimer);
    const stopping = [...this.workers.keys()];
    await Promise.all(
      [...this.workers.values()].map(async ({ worker, stopFlag, exited }) => {
        const flag = new Int32Array(stopFlag);
        Atomics.store(flag, 0, 1);
        Atomics.notify(flag, 0);
        const timer = setTimeout(() => void worker.terminate(), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      }),
    );
    // A worker finalises its task itself when it stops; this covers one that had to be terminated.
    for (const taskNo of stopping) {
      this.failIfRunning(taskNo, 'Interrupted: mds was shut down while the truncation was running. Run the truncation again.');
    }
    await Promise.all([this.reader.close(), this.writer.close()]);
    this.db.close();
  }

  /**
   * Tests only: dies like a killed process would — workers are terminated mid-batch and nothing is finalised,
   * so the next open has to recover.
   */
  async simulateCrash(): Promise<void> {
    this.closed = true;
    clearTimeout(this.measureTimer);
    await Promise.all([...this.workers.values()].map(({ worker }) => worker.terminate()));
    await Promise.all([this.reader.kill(), this.writer.kill()]);
    this.db.close();
  }

  private indexTables(): string[] {
    return (this.listTables.all() as string[]).filter((name) => parseIndexName(this.indexPrefix, name));
  }

  /**
   * dbstat walks every page of a table, so a table is measured again only once written since (its version moved).
   * One measurement at a time: concurrent callers wait for it, then measure what is still stale.
   */
  private async measureStaleTables(): Promise<void> {
    while (this.measuring) await this.measuring;
    if (this.closed) return;
    const versions = new Map(this.readVersions.all() as [string, number][]);
    const stale = this.indexTables().filter((name) => this.sizeCache.get(name)?.version !== (versions.get(name) ?? 0));
    if (stale.length === 0) return;
    this.measuring = this.reader
      .request<number[]>({ op: 'bytes', tables: stale })
      .then((bytes) => stale.forEach((name, i) => this.sizeCache.set(name, { version: versions.get(name) ?? 0, bytes: bytes[i]! })))
      .finally(() => (this.measuring = undefined));
    await this.measuring;
  }

  /** Measures written tables in the background once writes pause, so the next size report is already cached. */
  private measureSoon(): void {
    clearTimeout(this.measureTimer);
    this.measureTimer = setTimeout(() => void this.measureStaleTables().catch(() => undefined), MEASURE_AFTER_IDLE_MS);
    this.measureTimer.unref();
  }

  private spawn(taskNo: number, request: TruncationRequest): void {
    const stopFlag = new SharedArrayBuffer(4);
    const worker = new Worker(new URL('./truncate-worker.js', import.meta.url), {
      workerData: {
        file: this.file,
        taskNo,
        index: request.index,
        mode: request.mode,
        endTimeMillis: request.endTimeMillis,
        batchSize: request.batchSize,
        busyTimeoutMs: request.timeoutSeconds * 1000,
        rowsPerSecond: request.rowsPerSecond,
        stopFlag,
        contention: this.contention,
      },
    });
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    const exited = new Promise<void>((resolve) =>
      worker.once('exit', () => {
        this.workers.delete(taskNo);
        if (!this.closed) {
          this.failIfRunning(taskNo, `Truncation failed: ${failure?.message ?? 'the worker thread stopped unexpectedly'}`);
          this.measureSoon();
        }
        resolve();
      }),
    );
    this.workers.set(taskNo, { worker, stopFlag, exited });
  }

  private failIfRunning(taskNo: number, reason: string): void {
    if (this.tasks.get(taskNo)?.state === 'running') this.tasks.fail(taskNo, reason);
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The time-series store is closed.');
  }
}
