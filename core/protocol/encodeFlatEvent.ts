import { quoteString as quote } from './json/quoteString.js';
import { ErrorCodeSchema, PodStatusSchema, RunResultSchema, TurnResultSchema } from './schemas/enums.js';
import { NotificationDataSchema, type Event, type EventName } from './schemas/Event.js';

/**
 * How one field of a flat event is written: a string, a string left out when absent or null,
 * a boolean that defaults to false, a u64, a u64 written `null` when absent, or one of a unit
 * enum's values.
 */
type FieldKind = 'str' | 'str?' | 'bool=false' | 'u64' | 'u64|null' | ReadonlySet<string>;

/** The values of a `unitEnum` (a preprocess pipe into `z.enum`) or of a plain `z.enum`. */
function values(schema: unknown): ReadonlySet<string> {
  const s = schema as { out?: { options?: string[] }; options?: string[] };
  return new Set(s.out?.options ?? s.options ?? []);
}

/**
 * The events a run broadcasts most (besides the deltas), whose data is a flat struct: fields in
 * wire order, each with its kind. Checked against the schemas (test/protocol/flatEvents): the
 * same keys in the same order, and byte-identical output for any data.
 */
export const FLAT_EVENT_FIELDS: Partial<Record<EventName, ReadonlyArray<readonly [string, FieldKind]>>> = {
  status: [
    ['status', values(PodStatusSchema)],
    ['session_id', 'str'],
  ],
  ack: [['method', 'str']],
  turn_start: [['turn', 'u64']],
  turn_end: [
    ['turn', 'u64'],
    ['result', values(TurnResultSchema)],
  ],
  text_done: [['text', 'str']],
  usage: [
    ['input_tokens', 'u64|null'],
    ['output_tokens', 'u64|null'],
  ],
  run_end: [['result', values(RunResultSchema)]],
  tool_call_start: [
    ['id', 'str'],
    ['name', 'str'],
  ],
  tool_call_done: [
    ['id', 'str'],
    ['name', 'str'],
    ['arguments', 'str'],
  ],
  tool_result: [
    ['id', 'str'],
    ['summary', 'str'],
    ['output', 'str?'],
    ['is_error', 'bool=false'],
  ],
  error: [
    ['code', values(ErrorCodeSchema)],
    ['message', 'str'],
  ],
  notification: [
    ['source', values(NotificationDataSchema.out.shape.source)],
    ['message', 'str'],
  ],
};

/**
 * `e` as its line, written field by field without the schema pass, when it is one of the flat
 * events above and every field is of its plain kind; `undefined` otherwise (the schema path
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
    const v = data[name];
    let text: string;
    if (kind === 'str') {
      if (typeof v !== 'string') return undefined;
      text = quote(v);
    } else if (kind === 'str?') {
      if (v === undefined || v === null) continue;
      if (typeof v !== 'string') return undefined;
      text = quote(v);
    } else if (kind === 'bool=false') {
      if (v === undefined) text = 'false';
      else if (typeof v === 'boolean') text = String(v);
      else return undefined;
    } else if (kind === 'u64' || kind === 'u64|null') {
      if (kind === 'u64|null' && (v === undefined || v === null)) text = 'null';
      else if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && !Object.is(v, -0)) text = String(v);
      else return undefined;
    } else {
      if (typeof v !== 'string' || !kind.has(v)) return undefined;
      text = `"${v}"`;
    }
    body += `${body === '' ? '' : ','}"${name}":${text}`;
  }
  return `${head},"data":{${body}}}`;
}
