/**
 * The asynchronous twin of `createCommitCache` (read-cache.ts): a cache of asynchronous reads that is never stale,
 * keyed to the storage port's commit stamp (a number every commit to the database moves, whichever process made it). A hit costs one stamp check and is answered synchronously. A
 * read is cached only if the stamp did not move while it ran: the stamp is taken before the read, so a commit landing
 * between the read and the caching leaves nothing behind, and the next lookup reads again. Lookups of a key whose read is
 * under way, with no commit seen since it began, share that read; a failed read is not kept. Without a stamp (PostgreSQL:
 * another replica's commits cannot be seen cheaply) nothing is cached and every lookup reads.
 */
export function createStampedCache<K, V>(stamp: (() => number) | undefined, options: { maxEntries: number }) {
  const entries = new Map<K, V>();
  // Reads under way since the stamp last moved: a lookup of the same key meanwhile shares one instead of reading again.
  const loading = new Map<K, Promise<V>>();
  let version: number | undefined;
  return {
    get(key: K, load: () => Promise<V>): V | Promise<V> {
      if (!stamp) return load();
      const before = stamp();
      if (before !== version) {
        entries.clear();
        loading.clear();
        version = before;
      } else if (entries.has(key)) {
        return entries.get(key) as V;
      } else {
        const shared = loading.get(key);
        if (shared) return shared;
      }
      const done = () => loading.get(key) === read && loading.delete(key);
      const read: Promise<V> = load().then(
        (value) => {
          done();
          // `version` moved too if another lookup saw a newer stamp meanwhile: either way this read may be stale.
          if (stamp() === before && version === before) {
            // Emptying at the limit rather than evicting one by one: any commit empties the cache anyway.
            if (entries.size >= options.maxEntries) entries.clear();
            entries.set(key, value);
          }
          return value;
        },
        (error: unknown) => {
          done();
          throw error;
        },
      );
      loading.set(key, read);
      return read;
    },
  };
}
