/**
 * A JSON number that was written with a fraction or an exponent (`1.0`, `1e3`, `-0`), or an
 * integer too large for u64/i64. serde_json keeps such numbers as floats, and integer fields
 * must reject them, so the exact parser keeps the distinction that `JSON.parse` loses.
 * `valueOf()` lets arithmetic and `Number(x)` work as with a plain number.
 */
export class JsonFloat {
  constructor(
    readonly value: number,
    /** The literal as written, kept only when it is beyond f64 (`1e400` parses as Infinity). */
    readonly literal?: string,
  ) {}

  valueOf(): number {
    return this.value;
  }

  /** Plain `JSON.stringify` sees the numeric value; the exact serializer keeps the float form. */
  toJSON(): number {
    return this.value;
  }
}
