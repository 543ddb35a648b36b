import type { z } from 'zod';
import { stringifyJsonExact } from './json/stringifyJsonExact.js';
import { PLAIN_STRING as PLAIN, quoteString as quote } from './json/quoteString.js';
import { encodeFlatEvent } from './encodeFlatEvent.js';
import { formatIssues } from './formatIssues.js';
import { METHOD_PARAMS, type Method } from './schemas/Method.js';
import { EVENT_DATA, type Event } from './schemas/Event.js';

/** Thrown when an in-memory value does not fit its wire schema (a bug in the sender). */
export class ProtocolEncodeError extends Error {
  override name = 'ProtocolEncodeError';
}

/**
 * Serialises a method as one compact JSON line (without the trailing `\n`), byte-for-byte as
 * the Rust original: keys in declaration order, unit methods without `params`.
 */
export function encodeMethod(m: Method): string {
  const out: Record<string, unknown> = { method: m.method };
  if (m.request_id !== undefined) out.request_id = m.request_id;
  const schema = METHOD_PARAMS[m.method];
  if (schema) out.params = canonical(schema, m.params, m.method);
  return stringify(out);
}

/**
 * Serialises an event as one compact JSON line (without `\n`); v2 fields only when set. `seq`
 * overrides the event's own (the bus stamps broadcasts without copying them).
 */
export function encodeEvent(e: Event, seq: number | undefined = e.seq): string {
  const fast = encodeDelta(e, seq) ?? encodeFlatEvent(e, seq);
  if (fast !== undefined) return fast;
  const out: Record<string, unknown> = { event: e.event };
  if (e.request_id !== undefined) out.request_id = e.request_id;
  if (seq !== undefined) out.seq = seq;
  const schema = EVENT_DATA[e.event];
  if (!schema) return stringify(out);
  const data = canonical(schema, e.data, e.event) as { items?: unknown[]; greeting?: unknown };
  if (e.event === 'history') {
    // History items are arbitrary JSON that Rust writes from serde_json::Value: sorted keys, Rust floats.
    const head = JSON.stringify(out).slice(0, -1);
    return `${head},"data":{"items":${stringifyJsonExact(data.items, { sortKeys: true })},"greeting":${stringify(data.greeting)}}}`;
  }
  out.data = data;
  return stringify(out);
}

/** Encodes any value with a schema (canonical key order and defaults applied). */
export function encodeWith<S extends z.ZodType>(schema: S, value: z.input<S> | z.output<S>, what = 'value'): string {
  return stringify(canonical(schema, value, what));
}

/**
 * The hottest events (one per streamed token) have a single string field: written directly,
 * byte-identical to the schema path (a property test checks it). Anything unusual falls back.
 */
function encodeDelta(e: Event, seq: number | undefined): string | undefined {
  if (e.request_id !== undefined) return undefined;
  if (e.event === 'text_delta') {
    const { text } = e.data as { text: unknown };
    if (typeof text !== 'string') return undefined;
    // The common text needs no escape: one string per line, not another for its quoted form.
    if (PLAIN.test(text))
      return seq === undefined
        ? `{"event":"text_delta","data":{"text":"${text}"}}`
        : `{"event":"text_delta","seq":${seq},"data":{"text":"${text}"}}`;
    return seq === undefined
      ? `{"event":"text_delta","data":{"text":${quote(text)}}}`
      : `{"event":"text_delta","seq":${seq},"data":{"text":${quote(text)}}}`;
  }
  if (e.event === 'tool_call_args_delta') {
    const { id, json } = e.data as { id: unknown; json: unknown };
    if (typeof id !== 'string' || typeof json !== 'string') return undefined;
    const head =
      seq === undefined
        ? '{"event":"tool_call_args_delta","data":{'
        : `{"event":"tool_call_args_delta","seq":${seq},"data":{`;
    return `${head}"id":${quote(id)},"json":${quote(json)}}}`;
  }
  return undefined;
}

/**
 * A `text_delta` broadcast whose text needs no escape, as the pieces of its line (`\n`
 * included), stored in `out` from `at`; returns the index after them, or `at` for any other
 * event (`encodeEvent` it). A batch's pieces joined once make one flat string without a string
 * per line (and its concatenations) in between. Byte-identical to `encodeEvent(e, seq)` + `\n`.
 */
export function putDeltaPieces(e: Event, seq: number, out: unknown[], at: number): number {
  if (e.event !== 'text_delta' || e.request_id !== undefined) return at;
  const { text } = e.data as { text: unknown };
  if (typeof text !== 'string' || !PLAIN.test(text)) return at;
  out[at] = '{"event":"text_delta","seq":';
  out[at + 1] = seq;
  out[at + 2] = ',"data":{"text":"';
  out[at + 3] = text;
  out[at + 4] = '"}}\n';
  return at + 5;
}

function canonical(schema: z.ZodType, value: unknown, what: string): unknown {
  const r = schema.safeParse(value);
  if (!r.success) throw new ProtocolEncodeError(`cannot encode \`${what}\`: ${formatIssues(r.error)}`);
  return r.data;
}

/**
 * A number's `JSON.stringify` form that may differ from serde_json's: a float of 1e-6 up to 1e-5
 * (`0.000001`, Rust `1e-6`) or an integer of 20 digits and more (Rust `1e+20`).
 */
const NUMBER_FORMS_DIFFER = /0\.00000[1-9]|\d{20}/;

/**
 * `JSON.stringify`, or the exact writer for a value holding a bigint, a number whose form may
 * differ (above) or a string with a lone surrogate (written as U+FFFD): a number is written one
 * way whether or not its line also holds a bigint (a decoded line with one re-encodes byte for
 * byte). The values are walked, not the output scanned.
 */
function stringify(value: unknown): string {
  let exact: boolean;
  try {
    exact = needsExactWriter(value);
  } catch {
    exact = true; // nested too deep to walk: the exact writer says what is wrong with it
  }
  return exact ? stringifyJsonExact(value) : JSON.stringify(value);
}

function needsExactWriter(value: unknown): boolean {
  switch (typeof value) {
    case 'number':
      return !Number.isSafeInteger(value) && NUMBER_FORMS_DIFFER.test(String(value));
    case 'bigint':
      return true;
    case 'string':
      return !value.isWellFormed();
    case 'object': {
      if (value === null) return false;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (needsExactWriter(value[i])) return true;
        return false;
      }
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return needsExactWriter(toJSON.call(value));
      for (const key in value) if (needsExactWriter((value as Record<string, unknown>)[key])) return true;
      return false;
    }
    default:
      return false;
  }
}
