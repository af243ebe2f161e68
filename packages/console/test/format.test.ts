import { expect, it } from 'vitest';
import { daysAgo, humanBytes, humanMb, utcMidnight, utcSecond } from '../src/ui/format';

it('writes sizes in decimal units with three significant digits, as the server counts them', () => {
  expect(humanBytes(0)).toBe('0 B');
  expect(humanBytes(999)).toBe('999 B');
  expect(humanBytes(1000)).toBe('1.00 kB');
  expect(humanBytes(12_345)).toBe('12.3 kB');
  expect(humanBytes(995_328)).toBe('995 kB');
  expect(humanMb(0.208)).toBe('208 kB');
  expect(humanMb(1234.5)).toBe('1.23 GB');
  expect(humanMb(5e9)).toBe('5000 TB');
});

it('reads a cut-off day as its UTC midnight, and names days back from now', () => {
  expect(utcMidnight('2026-01-31')).toBe(Date.UTC(2026, 0, 31));
  expect(utcMidnight('')).toBeNaN();
  expect(daysAgo(7, Date.UTC(2026, 0, 31, 23, 59))).toBe('2026-01-24');
  expect(utcSecond(Date.UTC(2026, 0, 31, 14, 5, 9, 999))).toBe('2026-01-31 14:05:09 UTC');
});
