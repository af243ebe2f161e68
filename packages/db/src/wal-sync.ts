import { closeSync, fdatasync, openSync } from 'node:fs';

/** Makes every write already made to a file durable: `fdatasync` on libuv's thread pool, off the event loop. */
export type SyncFile = (file: string) => Promise<void>;

/** The WAL file's sync failed: what the failed sync covered may or may not be on disk, and nothing after it is acknowledged. */
export class CommitSyncError extends Error {
  override name = 'CommitSyncError';
}

/**
 * Durability of commits made without SQLite's own sync (`synchronous=NORMAL` in WAL mode: a commit writes its frames
 * to the `-wal` file and returns). `afterCommit()`, called right after a COMMIT returned, resolves once a sync of the
 * WAL file that began after that COMMIT completed. One sync runs at a time; commits made while it runs share the next
 * one, which starts as soon as it ends, so a sync covers every commit before it and syncs overlap the next batches'
 * work. A failed sync rejects its commits and every later one: the kernel may have dropped the pages it could not write
 * (and report no error again), so a later sync that succeeds would prove nothing about them. The database must then be
 * reopened (the server restarted), as PostgreSQL stops at a failed fsync.
 */
export function walSyncer(walFile: string, syncFile: SyncFile) {
  type Waiting = { promise: Promise<void>; resolve(): void; reject(error: unknown): void };
  /** The sync that will cover the commits made since the running one began. */
  let next: Waiting | undefined;
  /** The running sync's promise. */
  let running: Promise<void> | undefined;
  let failed: CommitSyncError | undefined;

  const waiting = (): Waiting => {
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    promise.catch(() => {}); // a rejection nobody awaits yet (a read's wait) is not unhandled
    return { promise, resolve, reject };
  };

  const start = () => {
    const batch = next!;
    next = undefined;
    running = batch.promise;
    syncFile(walFile).then(
      () => {
        running = undefined;
        batch.resolve();
        if (next) start();
      },
      (error: unknown) => {
        running = undefined;
        failed = new CommitSyncError(
          `the database's write-ahead log could not be synced to disk (${(error as Error).message ?? String(error)}): ` +
            'writes are refused until the server restarts',
          { cause: error },
        );
        batch.reject(failed);
        next?.reject(failed);
        next = undefined;
      },
    );
  };

  return {
    /** Resolves when the commit just made is durable; rejects with a CommitSyncError when it may not be. */
    afterCommit(): Promise<void> {
      if (failed) return Promise.reject(failed);
      next ??= waiting();
      const { promise } = next;
      if (!running) start();
      return promise;
    },
    /** The error every write is refused with once a sync failed. */
    get failed(): CommitSyncError | undefined {
      return failed;
    },
    /** The sync covering the latest commit, while it is not durable yet; undefined when every commit is. */
    pending(): Promise<void> | undefined {
      return next?.promise ?? running;
    },
  };
}

export type WalSyncer = ReturnType<typeof walSyncer>;

/**
 * `fdatasync` of one file on libuv's thread pool, through a descriptor opened at the first sync (read-only: Linux
 * syncs a file through any descriptor of it). The WAL file exists from the first commit until the last connection
 * to the database closes, so the descriptor stays the file's while the adapter's writer is open.
 */
export function fdatasyncFile(): SyncFile & { close(): void } {
  let fd: number | undefined;
  const sync = (file: string) =>
    new Promise<void>((resolve, reject) => {
      try {
        fd ??= openSync(file, 'r');
      } catch (error) {
        return reject(error);
      }
      fdatasync(fd, (error) => (error ? reject(error) : resolve()));
    });
  return Object.assign(sync, {
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  });
}
