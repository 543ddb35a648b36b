import { FLAT_EVENT_FIELDS, NOT_PLAIN, plainFieldValue } from './flatEventFields.js';
import type { EventName } from './schemas/Event.js';

/**
 * The data of a flat event as the schema path reads it (fields in the schema's order, defaults
 * applied, unknown keys dropped), without the schema pass, when every field is of its plain
 * kind; `undefined` otherwise (the schema path then reads the array form or a bigint, or says
 * what is wrong). A client reads ~8 such events a run before and after its first delta.
 */
export function decodeFlatData(event: EventName, data: unknown): Record<string, unknown> | undefined {
  const fields = FLAT_EVENT_FIELDS[event];
  if (fields === undefined || typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const input = data as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, kind] of fields) {
    const v = plainFieldValue(kind, input[name]);
    if (v === NOT_PLAIN) return undefined;
    // As zod's object does: a `str?` given (null included) is kept as undefined, an absent one is not.
    if (v !== undefined || name in input) out[name] = v;
  }
  return out;
}
