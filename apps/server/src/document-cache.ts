/** Characters of document text the cache of prepared documents may hold (about 20–40 bytes of AST per character). */
const DOCUMENT_CACHE_CHARS = 2 * 1024 * 1024;
const DOCUMENT_CACHE_ENTRIES = 1024;

/**
 * An LRU of documents by query text that bounds the text it holds as well as its entries. Counting entries alone (as
 * Yoga's parse cache does) let 1,024 distinct one-megabyte documents (a long comment is one token) keep a gigabyte
 * alive. A document larger than the whole budget is simply prepared every time.
 */
export function createDocumentCache<T>() {
  const entries = new Map<string, T>(); // insertion order = least recently used first
  let chars = 0;
  return {
    get(key: string): T | undefined {
      const value = entries.get(key);
      if (value === undefined) return undefined;
      entries.delete(key); // move to the most recently used end
      entries.set(key, value);
      return value;
    },
    set(key: string, value: T): void {
      if (key.length > DOCUMENT_CACHE_CHARS) return;
      if (entries.delete(key)) chars -= key.length;
      entries.set(key, value);
      chars += key.length;
      for (const oldest of entries.keys()) {
        if (chars <= DOCUMENT_CACHE_CHARS && entries.size <= DOCUMENT_CACHE_ENTRIES) break;
        entries.delete(oldest);
        chars -= oldest.length;
      }
    },
  };
}
