import type { CommitStamp } from './commit-watch';

export interface ReadCache<K, V> {
  /** The cached value of `key`, or `load()`'s (cached unless the cache is bypassed at the moment). */
  get(key: K, load: () => V): V;
  /** Drops `key` (a load that turned out to fail must not be answered again). */
  forget(key: K): void;
}

/**
 * A cache of rows that is never stale. Before each lookup it checks a commit stamp, which moves with every commit to
 * the database, whether made through this connection or another (another process: the CLI, a second server); a move
 * empties the cache. Owners need do nothing on their writes. The check costs a fraction of the indexed read it
 * replaces, and a revocation or an edit is still seen by the very next lookup. Without a stamp nothing is cached.
 */
export function createCommitCache<K, V>(
  stamp: CommitStamp | undefined,
  options: { maxEntries: number; bypass?: () => boolean },
): ReadCache<K, V> {
  const entries = new Map<K, V>();
  let version: number | undefined;
  return {
    get(key, load) {
      if (!stamp || options.bypass?.()) return load();
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
    forget: (key) => void entries.delete(key),
  };
}
