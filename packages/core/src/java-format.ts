/**
 * Java's `String.format("%.2f", x)`, which DataHub's answers use for percentages: Java rounds the shortest decimal
 * representation of the double half-up, away from zero (1.005 gives "1.01", -1.005 "-1.01"), where JavaScript's
 * toFixed rounds the exact binary value ("1.00").
 */
export function formatFixed2(x: number): string {
  if (x < 0) return `-${formatFixed2(-x)}`;
  const [mantissa = '0', exponent = '0'] = x.toExponential().split('e');
  const digits = BigInt(mantissa.replace('.', ''));
  // x = digits * 10^scale; we want round_half_up(x * 100).
  const scale = Number(exponent) - mantissa.replace(/^\d\.?/, '').length + 2;
  let hundredths: bigint;
  if (scale >= 0) {
    hundredths = digits * 10n ** BigInt(scale);
  } else {
    const divisor = 10n ** BigInt(-scale);
    hundredths = digits / divisor + ((digits % divisor) * 2n >= divisor ? 1n : 0n);
  }
  const text = hundredths.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}
