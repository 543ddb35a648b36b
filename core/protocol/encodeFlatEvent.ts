import { quoteString as quote } from './json/quoteString.js';
import { FLAT_EVENT_FIELDS, NOT_PLAIN, plainFieldValue } from './flatEventFields.js';
import type { Event } from './schemas/Event.js';

/**
 * `e` as its line, written field by field without the schema pass, when it is one of the flat
 * events (`FLAT_EVENT_FIELDS`) and every field is of its plain kind; `undefined` otherwise (the schema path
 * then validates it, applies the array form, or says what is wrong). A run broadcasts ~8 such
 * events: each was a zod parse and a `JSON.stringify` of a fresh object.
 */
export function encodeFlatEvent(e: Event, seq: number | undefined): string | undefined {
  const fields = FLAT_EVENT_FIELDS[e.event];
  const data = e.data as Record<string, unknown> | undefined;
  if (fields === undefined || typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  let head = `{"event":"${e.event}"`;
  if (e.request_id !== undefined) {
    if (typeof e.request_id !== 'string') return undefined;
    head += `,"request_id":${quote(e.request_id)}`;
  }
  if (seq !== undefined) {
    if (!Number.isSafeInteger(seq)) return undefined;
    head += `,"seq":${seq}`;
  }
  let body = '';
  for (const [name, kind] of fields) {
    const v = plainFieldValue(kind, data[name]);
    if (v === NOT_PLAIN) return undefined;
    if (v === undefined) continue; // an absent `str?` is left out
    body += `${body === '' ? '' : ','}"${name}":${typeof v === 'string' ? quote(v) : String(v)}`;
  }
  return `${head},"data":{${body}}}`;
}
