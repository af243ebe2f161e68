/** Decimal units, as the server counts (sizeMb is bytes / 1,000,000). */
const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'];

/** `1234567` → `1.23 MB`: three significant digits, decimal units. */
export function humanBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
}

export const humanMb = (sizeMb: number): string => humanBytes(sizeMb * 1_000_000);

const integer = new Intl.NumberFormat('en-US');
/** `12345` → `12,345`. */
export const count = (n: number): string => integer.format(n);

/** A millisecond timestamp as `2026-01-31 14:05:09 UTC`. */
export function utcSecond(millis: number): string {
  return `${new Date(millis).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** `2026-01-31` (an `<input type=date>` value) → its UTC midnight in milliseconds; NaN when not a date. */
export const utcMidnight = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** The `<input type=date>` value of the UTC day `days` before `now`. */
export const daysAgo = (days: number, now = Date.now()): string => new Date(now - days * 86_400_000).toISOString().slice(0, 10);
