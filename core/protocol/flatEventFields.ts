import { ErrorCodeSchema, PodStatusSchema, RunResultSchema, TurnResultSchema } from './schemas/enums.js';
import { NotificationDataSchema, type EventName } from './schemas/Event.js';

/**
 * What one field of a flat event holds: a string, a string left out when absent or null,
 * a boolean that defaults to false, a u64, a u64 written `null` when absent, or one of a unit
 * enum's values.
 */
export type FieldKind = 'str' | 'str?' | 'bool=false' | 'u64' | 'u64|null' | ReadonlySet<string>;

/** The values of a `unitEnum` (a preprocess pipe into `z.enum`) or of a plain `z.enum`. */
function values(schema: unknown): ReadonlySet<string> {
  const s = schema as { out?: { options?: string[] }; options?: string[] };
  return new Set(s.out?.options ?? s.options ?? []);
}

/**
 * The events a run broadcasts most (besides the deltas), whose data is a flat struct: fields in
 * wire order, each with its kind. The encoder writes them and the decoder reads them field by
 * field when every field is of its plain kind; anything else takes the schema path. Checked
 * against the schemas (test/protocol/flatEvents): the same keys in the same order, and the same
 * output as the schema path for any data.
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

/** What `plainFieldValue` returns for a value that is not of its field's plain kind. */
export const NOT_PLAIN: unique symbol = Symbol('not plain');

/**
 * A field's value as the schema path reads it — the default for an absent `bool=false`
 * (`false`) or `u64|null` (`null`), `undefined` for an absent or null `str?` — when it is of the
 * field's plain kind; `NOT_PLAIN` otherwise (a bigint, a wrong type, a value an enum lacks: the
 * schema path's to read or refuse). The encoder and the decoder of flat events share it.
 */
export function plainFieldValue(
  kind: FieldKind,
  v: unknown,
): string | number | boolean | null | undefined | typeof NOT_PLAIN {
  switch (kind) {
    case 'str':
      return typeof v === 'string' ? v : NOT_PLAIN;
    case 'str?':
      return v === undefined || v === null ? undefined : typeof v === 'string' ? v : NOT_PLAIN;
    case 'bool=false':
      return v === undefined ? false : typeof v === 'boolean' ? v : NOT_PLAIN;
    case 'u64|null':
      return v === undefined || v === null ? null : u64(v);
    case 'u64':
      return u64(v);
    default:
      return typeof v === 'string' && kind.has(v) ? v : NOT_PLAIN;
  }
}

function u64(v: unknown): number | typeof NOT_PLAIN {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && !Object.is(v, -0) ? v : NOT_PLAIN;
}
