/**
 * Formats a finite f64 the way serde_json writes it (shortest round-trip digits; `1.0` keeps its
 * `.0`; scientific form with an explicit sign when the decimal point would sit more than 16
 * places right or more than 5 places left). NaN and infinities become `null`, as in serde_json.
 */
export function formatRustFloat(value: number): string {
  if (!Number.isFinite(value)) return 'null';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  // toExponential() without an argument yields the shortest digits that round-trip.
  const [mantissa, exp] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const point = Number(exp) + 1; // position of the decimal point relative to the digits
  if (point > 0 && point <= 16) {
    if (digits.length <= point) return `${sign}${digits}${'0'.repeat(point - digits.length)}.0`;
    return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  }
  if (point <= 0 && point > -5) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  const e = point - 1;
  const frac = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${frac}e${e < 0 ? '-' : '+'}${Math.abs(e)}`;
}
