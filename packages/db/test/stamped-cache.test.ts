import { describe, expect, it } from 'vitest';
import { createStampedCache } from '../src/index';

/** A commit stamp the test moves by hand, and a table whose reads it counts. */
function fixture() {
  let stamp = 0;
  const table = new Map([['k', 'v1']]);
  let reads = 0;
  const read = async (key: string) => (reads++, table.get(key));
  return { commit: () => void stamp++, stamp: () => stamp, table, read, reads: () => reads };
}

describe('stamped cache (credentials on SQLite)', () => {
  it('answers a repeated lookup synchronously from memory while nothing is committed', async () => {
    const f = fixture();
    const cache = createStampedCache<string, string | undefined>(f.stamp, { maxEntries: 10 });
    expect(await cache.get('k', () => f.read('k'))).toBe('v1');
    expect(cache.get('k', () => f.read('k'))).toBe('v1');
    expect(f.reads()).toBe(1);
  });

  it('reads again after any commit', async () => {
    const f = fixture();
    const cache = createStampedCache<string, string | undefined>(f.stamp, { maxEntries: 10 });
    await cache.get('k', () => f.read('k'));
    f.table.set('k', 'v2');
    f.commit();
    expect(await cache.get('k', () => f.read('k'))).toBe('v2');
  });

  it('does not keep a read that a commit overtook, even once another lookup has seen that commit', async () => {
    const f = fixture();
    const cache = createStampedCache<string, string | undefined>(f.stamp, { maxEntries: 10 });
    const overtaken = async () => {
      const value = await f.read('k'); // read before the commit...
      f.table.set('k', 'revoked');
      f.commit();
      await cache.get('other', () => f.read('other')); // ...which a concurrent lookup sees before this read is cached
      return value;
    };
    expect(await cache.get('k', overtaken)).toBe('v1');
    expect(await cache.get('k', () => f.read('k'))).toBe('revoked');
  });

  it('shares a read under way between lookups of its key, but not across a commit, and keeps no failed read', async () => {
    const f = fixture();
    const cache = createStampedCache<string, string | undefined>(f.stamp, { maxEntries: 10 });
    const [a, b] = [cache.get('k', () => f.read('k')), cache.get('k', () => f.read('k'))];
    expect(await Promise.all([a, b])).toEqual(['v1', 'v1']);
    expect(f.reads()).toBe(1);
    f.commit();
    const before = cache.get('k', () => f.read('k'));
    f.table.set('k', 'v2');
    f.commit(); // a lookup after this commit must not be given the read begun before it
    expect(await Promise.all([before, cache.get('k', () => f.read('k'))])).toEqual(['v1', 'v2']);
    expect(f.reads()).toBe(3);
    f.commit();
    await expect(cache.get('k', () => Promise.reject(new Error('unreachable')))).rejects.toThrow('unreachable');
    expect(await cache.get('k', () => f.read('k'))).toBe('v2');
  });

  it('caches nothing without a stamp (PostgreSQL): every lookup reads', async () => {
    const f = fixture();
    const cache = createStampedCache<string, string | undefined>(undefined, { maxEntries: 10 });
    await cache.get('k', () => f.read('k'));
    expect(cache.get('k', () => f.read('k'))).toBeInstanceOf(Promise);
    expect(f.reads()).toBe(2);
  });
});
