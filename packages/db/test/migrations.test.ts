import { describe, expect, it } from 'vitest';
import { openTemp } from './helpers';

// How migrations are applied (once, per owner, refusing a newer database) is the port's contract: port-contract.ts.
describe('openDatabase', () => {
  it('opens a file in WAL mode with durable commits', () => {
    const db = openTemp();
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
  });
});
