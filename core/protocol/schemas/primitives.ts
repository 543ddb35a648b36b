import { z } from 'zod';
import { JsonFloat } from '../json/JsonFloat.js';
import { formatRustFloat } from '../json/formatRustFloat.js';

const describe = (v: unknown): string => {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (v instanceof JsonFloat)
    return Number.isFinite(v.value) ? `a float (${formatRustFloat(v.value)})` : `a number out of range (${v.literal})`;
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'bigint') return `integer ${v}`;
  if (typeof v === 'number')
    return Number.isInteger(v) ? `integer ${v}` : Number.isFinite(v) ? `a float (${v})` : 'a number out of range';
  return `${typeof v} ${JSON.stringify(v)}`;
};

/** Error text for a value of the wrong type; a missing value reads `missing field`. */
export function expected(what: string) {
  return (iss: { input?: unknown }) =>
    iss.input === undefined ? 'missing field' : `expected ${what}, got ${describe(iss.input)}`;
}

/** A JSON array (serde `Vec`). */
export function seq<T extends z.ZodType>(item: T) {
  return z.array(item, { error: expected('a sequence') });
}

/**
 * An integer field with Rust's range (`u32`, `u64`, `i64`). Integers beyond 2^53 arrive as
 * `bigint` from the exact parser; float literals arrive as `JsonFloat` and are rejected, as
 * serde_json rejects `7.0` for an integer.
 */
export function integer(label: string, min: bigint, max: bigint) {
  const safeMin = min < BigInt(Number.MIN_SAFE_INTEGER) ? Number.MIN_SAFE_INTEGER : Number(min);
  const safeMax = max > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(max);
  return z.custom<number | bigint>(
    (v) =>
      (typeof v === 'number' && Number.isInteger(v) && v >= safeMin && v <= safeMax && !Object.is(v, -0)) ||
      (typeof v === 'bigint' && v >= min && v <= max),
    { error: expected(label) },
  );
}

export const U32 = integer('u32', 0n, 0xffffffffn) as unknown as z.ZodType<number>;
export const U64 = integer('u64', 0n, (1n << 64n) - 1n);
export const I64 = integer('i64', -(1n << 63n), (1n << 63n) - 1n);

/** A plain string; names the received type in its error. */
export const Str = z.string({ error: expected('a string') });
export const Bool = z.boolean({ error: expected('a boolean') });

/**
 * A unit-variant enum (`"read"`). serde also accepts the map form `{"read": null}`.
 */
export function unitEnum<const T extends readonly [string, ...string[]]>(name: string, values: T) {
  const allowed = values.map((v) => `\`${v}\``).join(', ');
  const inner = z.enum(values, {
    error: (iss) =>
      typeof iss.input === 'string'
        ? `unknown ${name} \`${iss.input}\`, expected one of ${allowed}`
        : expected(name)(iss),
  });
  return z.preprocess((v) => {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && (v as Record<string, unknown>)[keys[0]] === null) return keys[0];
    }
    return v;
  }, inner);
}

/**
 * A Rust struct: an object whose fields are in declaration order (that order is the wire key
 * order). Unknown fields are ignored, as serde does. serde also accepts a struct written as a
 * JSON array of its fields in order (`["/tmp","write"]`): that form is normalised here.
 */
export function struct<S extends z.core.$ZodLooseShape>(shape: S) {
  const fields = Object.keys(shape);
  const obj = z.object(shape, { error: expected('an object') });
  return z.preprocess((v, ctx) => {
    if (!Array.isArray(v)) return v;
    if (v.length > fields.length) {
      ctx.issues.push({
        code: 'custom',
        message: `invalid length ${v.length}, expected at most ${fields.length} fields`,
        input: v,
      });
      return z.NEVER;
    }
    const out: Record<string, unknown> = {};
    v.forEach((item, i) => (out[fields[i]] = item));
    return out;
  }, obj);
}

export { describe as describeJsonValue };
