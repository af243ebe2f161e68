import { describe, expect, it } from 'vitest';
import { whenReady } from '../src/index';

describe('whenReady', () => {
  it('continues a value at once: the answer is no promise and is there before the call returns', () => {
    const seen: number[] = [];
    const answer = whenReady(20, (n) => {
      seen.push(n);
      return n + 1;
    });
    expect(seen).toEqual([20]);
    expect(answer).toBe(21);
  });

  it('continues a promise once it resolves, and passes a rejection on', async () => {
    const later = whenReady(Promise.resolve(20), (n) => n + 1);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(21);
    await expect(whenReady(Promise.reject(new Error('no read')), () => 0)).rejects.toThrow('no read');
  });
});
