import { describe, expect, it } from 'vitest';
import { chooseEntry } from '../src/mds-process.ts';

describe('which mds the benchmark runs', () => {
  it('runs the sources when no bundle is built', () => {
    expect(chooseEntry(undefined, 1_000)).toMatchObject({ kind: 'source', path: expect.stringMatching(/bin\/mds\.js$/) });
  });

  it('runs the bundle when it is at least as new as every source', () => {
    expect(chooseEntry(2_000, 1_000)).toEqual({ kind: 'bundle', path: expect.stringMatching(/dist\/mds\.mjs$/) });
  });

  it('runs the sources, with a warning, when a source changed after the bundle was built (never stale code)', () => {
    const entry = chooseEntry(1_000, 2_000);
    expect(entry).toMatchObject({ kind: 'source', path: expect.stringMatching(/bin\/mds\.js$/) });
    expect(entry.warning).toContain('older than the sources');
  });
});
