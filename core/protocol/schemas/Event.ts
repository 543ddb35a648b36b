import { z } from 'zod';
import { ErrorCodeSchema, PodStatusSchema, RunResultSchema, TurnResultSchema } from './enums.js';
import { SegmentSchema } from './Segment.js';
import { AlertSchema, GreetingSchema, UuidSchema } from './structs.js';
import { Bool, Str, U32, U64, seq, struct } from './primitives.js';

const TurnSchema = struct({ turn: U64 });

export const UserMessageDataSchema = struct({ segments: seq(SegmentSchema) });
export const TurnEndDataSchema = struct({ turn: U64, result: TurnResultSchema });
export const TextDataSchema = struct({ text: Str });
export const ToolCallStartDataSchema = struct({ id: Str, name: Str });
export const ToolCallArgsDeltaDataSchema = struct({ id: Str, json: Str });
export const ToolCallDoneDataSchema = struct({ id: Str, name: Str, arguments: Str });
/** `output` is omitted when absent (`null` reads as absent); `is_error` is always written. */
export const ToolResultDataSchema = struct({
  id: Str,
  summary: Str,
  output: Str.nullish().transform((v) => v ?? undefined),
  is_error: Bool.default(false),
});
/** Token counts; unknown counts are written as `null`. `input_tokens` is the whole prompt. */
export const UsageDataSchema = struct({
  input_tokens: U64.nullable().default(null),
  output_tokens: U64.nullable().default(null),
});
export const RunEndDataSchema = struct({ result: RunResultSchema });
export const ErrorDataSchema = struct({ code: ErrorCodeSchema, message: Str });
/** `items` are provider-neutral history items (arbitrary JSON, keys written sorted). */
export const HistoryDataSchema = struct({ items: seq(z.unknown()), greeting: GreetingSchema });
export const CompactDoneDataSchema = struct({ new_session_id: UuidSchema });
export const CompactFailedDataSchema = struct({ error: Str });

// v2 events
/** One segment kind a pod resolves: `sigil` + token becomes `{kind, [field]: token}` in clients. */
export const SegmentKindInfoSchema = struct({
  kind: Str,
  sigil: Str.optional(),
  field: Str.optional(),
  description: Str.optional(),
});
export type SegmentKindInfo = z.infer<typeof SegmentKindInfoSchema>;

/** Loose: plugins add fields through the `welcome` hook (pending permission asks), kept on both ends. */
export const WelcomeDataSchema = z.looseObject({
  protocol_version: U32,
  pod_name: Str,
  session_id: Str,
  status: PodStatusSchema,
  segment_kinds: seq(Str),
  pod_event_kinds: seq(Str),
  /** Every kind the pod resolves, with how clients write it (`@path`) and the field holding the reference. */
  segments: seq(SegmentKindInfoSchema).optional(),
});
export const AckDataSchema = struct({ method: Str });
export const StatusDataSchema = struct({ status: PodStatusSchema, session_id: Str });
export const LaggedDataSchema = struct({ from_seq: U64, to_seq: U64 });
export const CompletionsDataSchema = struct({ kind: Str, prefix: Str, items: seq(Str) });
/**
 * A notification reached the pod (`notify`, or a child pod's report as its parent's model will
 * read it): `source` says which. It is committed to the history before the next LLM request;
 * clients show it as it arrives.
 */
export const NotificationDataSchema = struct({ source: z.enum(['notify', 'pod_event']), message: Str });
/** How far a running tool call got (MCP progress notifications); `id` is the tool call's. */
export const ToolProgressDataSchema = struct({
  id: Str,
  progress: z.number(),
  total: z.number().optional(),
  message: Str.optional(),
});

/** Every event, by name, with its data schema; `null` marks a unit event (no `data`). */
export const EVENT_DATA = {
  user_message: UserMessageDataSchema,
  turn_start: TurnSchema,
  turn_end: TurnEndDataSchema,
  text_delta: TextDataSchema,
  text_done: TextDataSchema,
  tool_call_start: ToolCallStartDataSchema,
  tool_call_args_delta: ToolCallArgsDeltaDataSchema,
  tool_call_done: ToolCallDoneDataSchema,
  tool_result: ToolResultDataSchema,
  usage: UsageDataSchema,
  run_end: RunEndDataSchema,
  error: ErrorDataSchema,
  history: HistoryDataSchema,
  alert: AlertSchema,
  compact_start: null,
  compact_done: CompactDoneDataSchema,
  compact_failed: CompactFailedDataSchema,
  shutdown: null,
  welcome: WelcomeDataSchema,
  ack: AckDataSchema,
  status: StatusDataSchema,
  lagged: LaggedDataSchema,
  completions: CompletionsDataSchema,
  notification: NotificationDataSchema,
  tool_progress: ToolProgressDataSchema,
} as const;

export type EventName = keyof typeof EVENT_DATA;
export const EVENT_NAMES = Object.keys(EVENT_DATA) as EventName[];
/** The events a v1 (Rust yoi) peer knows. */
export const V1_EVENT_NAMES: readonly EventName[] = EVENT_NAMES.slice(0, EVENT_NAMES.indexOf('shutdown') + 1);

export type EventData<K extends EventName> = (typeof EVENT_DATA)[K] extends z.ZodType
  ? z.output<(typeof EVENT_DATA)[K]>
  : undefined;

/**
 * A pod → client line. v2 adds top-level `seq` (broadcasts, gap-free per pod) and
 * `request_id` (replies to a request).
 */
export type Event = {
  [K in EventName]: (typeof EVENT_DATA)[K] extends null
    ? { event: K; data?: undefined; seq?: number; request_id?: string }
    : { event: K; data: EventData<K>; seq?: number; request_id?: string };
}[EventName];

export type EventOf<K extends EventName> = Extract<Event, { event: K }>;
