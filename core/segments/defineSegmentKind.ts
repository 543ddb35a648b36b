import type { z } from 'zod';
import { YoiError } from '../errors/YoiError.js';

/** What a plugin author declares about a segment kind. */
export interface SegmentKindDefinition<K extends string, S extends z.ZodType> {
  /** The wire `kind` (`ticket_ref`); lower-case letters, digits and `_`. */
  readonly kind: K;
  /**
   * The segment's fields besides `kind` (an object schema). The pod validates every segment of
   * this kind with it before any resolver sees it; a payload that fails falls back to the
   * placeholder + alert, naming the field.
   */
  readonly schema: S;
  /** What users type before a reference of this kind in `yoi attach` (`@`, `#`, `!`). */
  readonly sigil?: string;
  /** The field that holds what follows the sigil (`{kind, [field]: token}`). Default `ref`. */
  readonly field?: string;
  /** One line for `yoi plugins`, the welcome and completion UIs. */
  readonly description?: string;
}

/** A declared segment kind; `SegmentOf<typeof Kind>` is the typed segment its resolvers get. */
export interface SegmentKind<K extends string = string, S extends z.ZodType = z.ZodType> extends SegmentKindDefinition<
  K,
  S
> {
  /** Validates a segment object; the result carries `kind`. */
  parse(
    raw: Readonly<Record<string, unknown>>,
  ): { ok: true; segment: SegmentOf<SegmentKind<K, S>> } | { ok: false; error: z.ZodError };
}

/** The segment a resolver of `Kind` receives: `{ kind, ...fields }`. */
export type SegmentOf<Kind> = Kind extends SegmentKind<infer K, infer S> ? { readonly kind: K } & z.output<S> : never;

const KIND = /^[a-z][a-z0-9_]{0,63}$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/**
 * Declares a segment kind with its schema (and, for clients, a sigil and the field it fills).
 * Register it in a plugin with `api.segmentKind(Kind)`, which also gives typed `resolve()` and
 * `complete()` taps. Exported from `yoi`.
 */
export function defineSegmentKind<K extends string, S extends z.ZodType>(
  definition: SegmentKindDefinition<K, S>,
): SegmentKind<K, S> {
  const { kind, schema, sigil, field, description } = definition;
  const bad = (why: string) => new YoiError('YOI_ERR_SEGMENT_KIND', `segment kind ${JSON.stringify(kind)}: ${why}`);
  if (typeof kind !== 'string' || !KIND.test(kind))
    throw bad('the kind must be lower-case letters, digits and "_", starting with a letter');
  if (typeof schema?.safeParse !== 'function') throw bad('`schema` must be a zod schema');
  if (
    sigil !== undefined &&
    (typeof sigil !== 'string' || [...sigil].length !== 1 || /[\p{L}\p{N}\s\\`]/u.test(sigil))
  ) {
    throw bad('the sigil must be one character that is not a letter, digit, space, backslash or backtick');
  }
  if (field !== undefined && (typeof field !== 'string' || !FIELD.test(field) || field === 'kind'))
    throw bad('`field` must be an identifier other than "kind"');
  return Object.freeze({
    kind,
    schema,
    ...(sigil !== undefined ? { sigil } : {}),
    ...(field !== undefined ? { field } : {}),
    ...(description !== undefined ? { description } : {}),
    parse(raw: Readonly<Record<string, unknown>>) {
      const parsed = schema.safeParse(raw);
      if (!parsed.success) return { ok: false as const, error: parsed.error };
      const fields = parsed.data !== null && typeof parsed.data === 'object' ? parsed.data : {};
      return { ok: true as const, segment: { ...fields, kind } as SegmentOf<SegmentKind<K, S>> };
    },
  });
}
