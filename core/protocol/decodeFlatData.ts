import { FLAT_EVENT_FIELDS } from './flatEventFields.js';
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
    const v = input[name];
    if (kind === 'str') {
      if (typeof v !== 'string') return undefined;
      out[name] = v;
    } else if (kind === 'str?') {
      if (v !== undefined && v !== null && typeof v !== 'string') return undefined;
      // As zod's object does: a key given (null included) is kept, an absent one is not.
      if (v !== undefined || name in input) out[name] = v ?? undefined;
    } else if (kind === 'bool=false') {
      if (v !== undefined && typeof v !== 'boolean') return undefined;
      out[name] = v ?? false;
    } else if (kind === 'u64' || kind === 'u64|null') {
      if (kind === 'u64|null' && (v === undefined || v === null)) out[name] = null;
      else if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && !Object.is(v, -0)) out[name] = v;
      else return undefined;
    } else {
      if (typeof v !== 'string' || !kind.has(v)) return undefined;
      out[name] = v;
    }
  }
  return out;
}
