import type Database from 'better-sqlite3';
import { commitStamp } from './commit-watch';

export interface ReadCache<K, V> {
  /** The cached value of `key`, or `load()`'s (cached unless a transaction is open). */
  get(key: K, load: () => V): V;
}

/**
 * A cache of rows that is never stale. Before each lookup it checks the connection's commit stamp, which moves with
 * every commit to the file, whether made through this connection or another (another process: the CLI, a second
 * server); a move empties the cache. Owners need do nothing on their writes. The check costs a fraction of the
 * indexed read it replaces, and a revocation or an edit is still seen by the very next lookup.
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
        // Emptying at the limit rather than evicting one by one: any commit empties the cache anyway.
        if (entries.size >= options.maxEntries) entries.clear();
        entries.set(key, value);
      }
      return value as V;
    },
  };
}
