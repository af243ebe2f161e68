import { describe, expect, it } from 'vitest';
import { formatFixed2 } from '../src/index';

describe('formatFixed2', () => {
  it('formats percentages like Java %.2f (half-up on the shortest decimal form)', () => {
    expect(formatFixed2(60)).toBe('60.00');
    expect(formatFixed2(1.005)).toBe('1.01');
    expect(formatFixed2(0.125)).toBe('0.13');
    expect(formatFixed2((1 / 3) * 100)).toBe('33.33');
    expect(formatFixed2((2 / 3) * 100)).toBe('66.67');
    expect(formatFixed2(99.995)).toBe('100.00');
    expect(formatFixed2((1 / 1e12) * 100)).toBe('0.00');
    expect(formatFixed2(100)).toBe('100.00');
    expect(formatFixed2(-1.005)).toBe('-1.01');
    expect(formatFixed2(-12.5)).toBe('-12.50');
  });
});
