import type Database from 'better-sqlite3';
import { closeSync, openSync, readSync } from 'node:fs';

/** A number that moves whenever a commit, by any connection to the file, may have changed it. */
export type CommitStamp = () => number;

// The first copy of the wal-index header (https://www.sqlite.org/walformat.html §2.1): its change counter, frame
// count and salts move with every commit and every WAL restart, whichever connection made them.
const WAL_INDEX_HEADER_BYTES = 48;

const stamps = new WeakMap<Database.Database, CommitStamp>();
const openFiles = new FinalizationRegistry<number>((fd) => closeSync(fd));

/**
 * One stamp per connection, shared by every cache over it. In WAL mode it reads the wal-index header from the
 * `-shm` file: one pread, without the locks a statement takes (a statement costs a read transaction, several times
 * as much), and the header moves with this connection's commits as with everyone else's. Other journal modes, and
 * in-memory databases, fall back to one statement: `data_version` (other connections' commits) with
 * `total_changes()` (this connection's own writes).
 */
export function commitStamp(db: Database.Database): CommitStamp {
  let stamp = stamps.get(db);
  if (!stamp) {
    stamp = walIndexStamp(db) ?? dataVersionStamp(db);
    stamps.set(db, stamp);
  }
  return stamp;
}

function dataVersionStamp(db: Database.Database): CommitStamp {
  const versions = db.prepare('SELECT data_version, total_changes() FROM pragma_data_version').raw();
  let seenVersion = -1;
  let seenChanges = -1;
  let generation = 0;
  return () => {
    const [version, changes] = versions.get() as [number, number];
    if (version !== seenVersion || changes !== seenChanges) {
      generation++;
      seenVersion = version;
      seenChanges = changes;
    }
    return generation;
  };
}

function walIndexStamp(db: Database.Database): CommitStamp | undefined {
  if (db.memory || db.pragma('journal_mode', { simple: true }) !== 'wal') return undefined;
  let fd: number;
  try {
    fd = openSync(`${db.name}-shm`, 'r');
  } catch {
    return undefined;
  }
  openFiles.register(db, fd);
  let seen = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let read = Buffer.alloc(WAL_INDEX_HEADER_BYTES);
  let generation = 0;
  return () => {
    // A short read (a header not written yet) counts as a change: never a reason to trust the cache.
    if (readSync(fd, read, 0, WAL_INDEX_HEADER_BYTES, 0) !== WAL_INDEX_HEADER_BYTES || !read.equals(seen)) {
      generation++;
      [seen, read] = [read, seen];
    }
    return generation;
  };
}
