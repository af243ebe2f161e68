import type Database from 'better-sqlite3';
import { commitStamp } from './commit-watch';

export interface ReadCache<K, V> {
  /** The cached value of `key`, or `load()`'s (cached unless a transaction is open). */
  get(key: K, load: () => V): V;
  /** Forgets everything: call after every write this connection makes to what the cache holds. */
  invalidate(): void;
}

/**
 * A cache of rows that is never stale. Before each lookup it checks the connection's commit stamp, which moves
 * whenever another connection (another process: the CLI, a second server) commits to the file; a move empties the
 * cache. Writes made through this connection need not move the stamp, so the owner of the cached tables calls
 * `invalidate()` after each of its own writes. The check costs a fraction of the indexed read it replaces, and a
 * revocation or an edit is still seen by the very next lookup.
 *
 * Inside an open transaction the cache is bypassed: uncommitted rows could be rolled back after being cached.
 */
export function createReadCache<K, V>(db: Database.Database, options: { maxEntries: number }): ReadCache<K, V> {
  const stamp = commitStamp(db);
  const entries = new Map<K, V>();
  let version: number | undefined;
  return {
    get(key, load) {
      if (db.inTransaction) return load();
      const current = stamp();
      if (current !== version) {
        entries.clear();
        version = current;
      }
      let value = entries.get(key);
      if (value === undefined && !entries.has(key)) {
        value = load();
        // Emptying at the limit rather than evicting one by one: any write empties the cache anyway.
        if (entries.size >= options.maxEntries) entries.clear();
        entries.set(key, value);
      }
      return value as V;
    },
    invalidate: () => entries.clear(),
  };
}
