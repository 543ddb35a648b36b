import type { z } from 'zod';
import { parseJson } from './json/parseJson.js';
import { formatIssues } from './formatIssues.js';
import { describeJsonValue } from './schemas/primitives.js';
import { METHOD_PARAMS, type Method } from './schemas/Method.js';
import { EVENT_DATA, type Event, type EventName } from './schemas/Event.js';
import { decodeTextDeltaLine } from './decodeTextDelta.js';
import { decodeFlatData } from './decodeFlatData.js';

/** The outcome of decoding one value: the typed value, or one readable line saying why not. */
export type Decoded<T> = { ok: true; value: T } | { ok: false; error: string };

/** Longest error a decoder returns: it may quote what the client sent (a method name, a key). */
const MAX_ERROR_CHARS = 500;

/**
 * An error as one line: what it quotes from the client may hold line breaks and control
 * characters (`{"method":"a\nb"}`), written as escapes here, and is cut if very long.
 */
export function oneLineError(message: string): string {
  const flat = message.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return flat.length > MAX_ERROR_CHARS ? `${flat.slice(0, MAX_ERROR_CHARS - 1)}…` : flat;
}

const failed = <T>(d: Decoded<T>): Decoded<T> => (d.ok ? d : { ok: false, error: oneLineError(d.error) });

/** Parses one JSON text exactly (serde_json semantics); never throws. */
export function parseLine(line: string): Decoded<unknown> {
  try {
    return { ok: true, value: parseJson(line) };
  } catch (e) {
    return { ok: false, error: oneLineError(`malformed JSON: ${(e as Error).message}`) };
  }
}

/** Validates a parsed value against any protocol schema. */
export function decodeWith<S extends z.ZodType>(schema: S, value: unknown): Decoded<z.output<S>> {
  const r = schema.safeParse(value);
  return r.success ? { ok: true, value: r.data } : { ok: false, error: oneLineError(formatIssues(r.error)) };
}

/** Decodes a client → pod line (`{"method":...}`). */
export function decodeMethodLine(line: string): Decoded<Method> {
  const parsed = parseLine(line);
  return parsed.ok ? decodeMethod(parsed.value) : parsed;
}

export function decodeMethod(value: unknown): Decoded<Method> {
  return failed(decodeEnvelope(value, 'method', 'params', METHOD_PARAMS)) as Decoded<Method>;
}

/** Decodes a pod → client line (`{"event":...}`). */
export function decodeEventLine(line: string): Decoded<Event> {
  const delta = decodeTextDeltaLine(line); // one per streamed token: no scan, no schema pass
  if (delta) return { ok: true, value: delta };
  const parsed = parseLine(line);
  return parsed.ok ? decodeEvent(parsed.value) : parsed;
}

export function decodeEvent(value: unknown): Decoded<Event> {
  return failed(decodeEnvelope(value, 'event', 'data', EVENT_DATA)) as Decoded<Event>;
}

/**
 * serde's adjacently tagged enum: `{"<tag>": name, "<content>": ...}` in any key order, or the
 * sequence form `[name, content]`. Unknown top-level keys are ignored; v2 `request_id` and
 * `seq` are kept.
 */
function decodeEnvelope(
  value: unknown,
  tagKey: 'method' | 'event',
  contentKey: 'params' | 'data',
  table: Record<string, z.ZodType | null>,
): Decoded<Record<string, unknown>> {
  const fail = (error: string): Decoded<never> => ({ ok: false, error });
  let tag: unknown;
  let content: unknown;
  let hasContent: boolean;
  let extra: Record<string, unknown> | undefined;
  if (Array.isArray(value)) {
    if (value.length === 0 || value.length > 2)
      return fail(`expected [${tagKey}, ${contentKey}], got an array of ${value.length}`);
    [tag, content] = value;
    hasContent = value.length === 2;
  } else if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    tag = obj[tagKey];
    hasContent = Object.hasOwn(obj, contentKey);
    content = obj[contentKey];
    extra = obj;
  } else {
    return fail(`expected a ${tagKey} object, got ${describeJsonValue(value)}`);
  }
  if (tag === undefined) return fail(`missing field \`${tagKey}\``);
  if (typeof tag !== 'string') return fail(`invalid \`${tagKey}\`: expected a string, got ${describeJsonValue(tag)}`);
  if (!Object.hasOwn(table, tag)) return fail(`unknown ${tagKey} \`${tag}\``);

  const out: Record<string, unknown> = { [tagKey]: tag };
  if (extra) {
    const rid = extra.request_id;
    if (rid !== undefined) {
      if (typeof rid !== 'string')
        return fail(`invalid \`request_id\`: expected a string, got ${describeJsonValue(rid)}`);
      out.request_id = rid;
    }
    const seq = extra.seq;
    if (typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0) out.seq = seq;
  }
  const schema = table[tag];
  if (schema === null) {
    if (hasContent && content !== null)
      return fail(`\`${tag}\` takes no ${contentKey}, got ${describeJsonValue(content)}`);
    return { ok: true, value: out };
  }
  if (!hasContent) return fail(`missing field \`${contentKey}\` for \`${tag}\``);
  const flat = tagKey === 'event' ? decodeFlatData(tag as EventName, content) : undefined;
  if (flat !== undefined) {
    out[contentKey] = flat;
    return { ok: true, value: out };
  }
  const r = schema.safeParse(content);
  if (!r.success) return fail(`invalid ${contentKey} for \`${tag}\`: ${formatIssues(r.error)}`);
  out[contentKey] = r.data;
  return { ok: true, value: out };
}
