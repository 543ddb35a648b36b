import { z } from 'zod';
import { describeJsonValue } from './primitives.js';

/**
 * An internally tagged union (`{"kind": ..., ...fields}`) dispatched through a kind→schema map,
 * so error messages name the one variant that failed (a zod union would report every branch).
 * `onUnknown` decides what an unknown string kind becomes (a value, or an error message). A
 * sequence (`["text","hi"]`) is read as the tag followed by the fields, as serde does.
 */
export function taggedUnion<M extends Record<string, z.ZodType>, U>(opts: {
  name: string;
  tag: string;
  variants: M;
  /** Instances of this class pass through untouched (re-validation of decoded values). */
  passthrough: new (...args: any[]) => U;
  onUnknown: (raw: Record<string, unknown>, kind: string) => U | string;
}) {
  const { name, tag, variants } = opts;
  const known = (k: unknown): k is keyof M & string => typeof k === 'string' && Object.hasOwn(variants, k);

  return z.unknown().transform((input, ctx): z.output<M[keyof M]> | U => {
    if (input instanceof opts.passthrough) return input as U;
    const fail = (message: string, path: PropertyKey[] = []) => {
      ctx.issues.push({ code: 'custom', message, path, input });
      return z.NEVER;
    };
    const parseVariant = (schema: z.ZodType, value: unknown) => {
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data as z.output<M[keyof M]>;
      for (const issue of parsed.error.issues) ctx.issues.push(issue as never);
      return z.NEVER;
    };

    let raw: Record<string, unknown>;
    if (Array.isArray(input)) {
      if (input.length === 0) return fail(`missing field \`${tag}\``);
      if (known(input[0])) return parseVariant(variants[input[0]], input);
      raw = { [tag]: input[0] };
    } else if (input !== null && typeof input === 'object') {
      raw = input as Record<string, unknown>;
    } else {
      return fail(`expected ${name} object, got ${describeJsonValue(input)}`);
    }

    const kind = raw[tag];
    if (kind === undefined) return fail(`missing field \`${tag}\``);
    if (typeof kind !== 'string') return fail(`expected a string, got ${describeJsonValue(kind)}`, [tag]);
    if (known(kind)) return parseVariant(variants[kind], raw);
    const out = opts.onUnknown(raw, kind);
    return typeof out === 'string' ? fail(out, [tag]) : out;
  });
}
