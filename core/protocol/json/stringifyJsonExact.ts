import { JsonFloat } from './JsonFloat.js';
import { formatRustFloat } from './formatRustFloat.js';
import { wellFormed } from './wellFormed.js';

export interface StringifyExactOptions {
  /** Emit object keys in byte-wise (UTF-8) order, as serde_json does for `serde_json::Value`. */
  sortKeys?: boolean;
}

/**
 * Compact JSON exactly as serde_json writes it: bigints as exact integers, {@link JsonFloat}
 * in Rust's float form (`1.0`, `1e+21`), strings escaped like `JSON.stringify` (which matches
 * serde_json for well-formed strings; a lone surrogate is written as U+FFFD, see wellFormed).
 * `undefined` members are skipped; `toJSON()` is honoured.
 */
export function stringifyJsonExact(value: unknown, options: StringifyExactOptions = {}): string {
  return write(value, options.sortKeys === true);
}

const I64_MIN = -(2 ** 63);
const U64_LIMIT = 2 ** 64;

function write(value: unknown, sortKeys: boolean): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(wellFormed(value));
    case 'number':
      if (!Number.isFinite(value)) return 'null';
      // An integer serde can hold as i64/u64 stays one (all its digits: `String` would round
      // 2^60 to `…847000`); anything else is an f64 there, written as Rust writes it (`1e-6`, not
      // `0.000001`), so what we write reads back the same.
      if (Number.isSafeInteger(value)) return String(value);
      return Number.isInteger(value) && value >= I64_MIN && value < U64_LIMIT
        ? BigInt(value).toString()
        : formatRustFloat(value);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (value === null) return 'null';
      if (value instanceof JsonFloat) return formatRustFloat(value.value);
      if (Array.isArray(value))
        return `[${value.map((v) => (v === undefined ? 'null' : write(v, sortKeys))).join(',')}]`;
      const custom = (value as { toJSON?: () => unknown }).toJSON;
      if (typeof custom === 'function') return write(custom.call(value), sortKeys);
      let keys = Object.keys(value);
      if (sortKeys) keys = keys.sort(compareUtf8);
      const parts: string[] = [];
      for (const k of keys) {
        const v = (value as Record<string, unknown>)[k];
        if (v === undefined || typeof v === 'function') continue;
        parts.push(`${JSON.stringify(wellFormed(k))}:${write(v, sortKeys)}`);
      }
      return `{${parts.join(',')}}`;
    }
    default:
      return 'null';
  }
}

/** Orders strings by their UTF-8 bytes (= code point order), not by UTF-16 code units. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}
