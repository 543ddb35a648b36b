import { z } from 'zod';
import { HistoryItemSchema } from '../history/HistoryItem.js';

const Ts = z.number().int();
const Hash = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * The reports a pod applied (by reporting pod, their request ids, newest last) and the notes of
 * those its model has not read yet: what a compacted session starts with (`session_start.reports`),
 * so a report retried after a restart is applied once across the switch too.
 */
export const ReportsSnapshotSchema = z.object({
  applied: z.record(z.string(), z.array(z.string())),
  pending: z.array(z.object({ from: z.string(), request_id: z.string(), note: z.string() })),
});
export type ReportsSnapshot = z.infer<typeof ReportsSnapshotSchema>;

/**
 * One line of a session log (`<project>/.yoi/sessions/<uuidv7>.jsonl`). The user's input keeps
 * its typed segments (raw payload of unknown kinds included) next to the items the model saw,
 * so clients re-render chips and refs from history and a restore never re-reads files.
 */
export const SessionEntrySchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session_start'),
    v: z.literal(1),
    ts: Ts,
    session_id: z.string(),
    pod_name: z.string(),
    cwd: z.string(),
    provider: z.string(),
    model: z.string(),
    system_prompt: z.string(),
    /**
     * Set on the first entry of a session made by compaction; `at_hash` is the hash of the old
     * session's last line when it was compacted (absent when that log was unchained).
     */
    compacted_from: z.object({ session_id: z.string(), at: Ts, at_hash: Hash.optional() }).optional(),
    /** The history a compacted session starts with (summary + retained tail). */
    history: z.array(HistoryItemSchema).optional(),
    /** The reports the old session had applied, and their notes not yet read. */
    reports: ReportsSnapshotSchema.optional(),
  }),
  z.object({
    type: z.literal('user_input'),
    ts: Ts,
    /** Wire form of the typed segments, exactly as the client sent them. */
    segments: z.array(z.unknown()),
    /** The user message and context items added to history. */
    items: z.array(HistoryItemSchema),
    /**
     * When set, the user message's text (items[0], stored empty) is these parts joined: a
     * number stands for the `content` of that segment (a paste is stored once), a string is
     * literal text.
     */
    user_text: z.array(z.union([z.string(), z.number().int().nonnegative()])).optional(),
    /** System instructions that applied to this run only (workflows). */
    instructions: z.array(z.string()).optional(),
  }),
  z.object({
    type: z.literal('items'),
    ts: Ts,
    source: z.enum(['assistant', 'tool', 'notification', 'interrupt']),
    items: z.array(HistoryItemSchema),
  }),
  z.object({
    type: z.literal('usage'),
    ts: Ts,
    turn: z.number().int().nonnegative(),
    input_tokens: z.number().int().nonnegative().nullable(),
    output_tokens: z.number().int().nonnegative().nullable(),
  }),
  z.object({
    /** State a plugin keeps across a restart (`services.pluginLog`), opaque to the core. */
    type: z.literal('plugin'),
    ts: Ts,
    plugin: z.string(),
    data: z.unknown(),
  }),
  z.object({
    /**
     * A child's report applied (its side effects ran): the one durable record that it was, and of
     * the note the model gets for it (absent when a plugin consumed the report). Written before the
     * report is acknowledged; a retry of `from`'s `request_id` is acknowledged, never re-applied.
     */
    type: z.literal('pod_event'),
    ts: Ts,
    from: z.string(),
    request_id: z.string(),
    note: z.string().optional(),
  }),
  z.object({
    type: z.literal('run_end'),
    ts: Ts,
    result: z.enum(['finished', 'paused', 'limit_reached', 'cancelled', 'error']),
    error: z.string().optional(),
  }),
]);
export type SessionEntry = z.infer<typeof SessionEntrySchema>;
export type SessionEntryOf<T extends SessionEntry['type']> = Extract<SessionEntry, { type: T }>;

/**
 * What every line carries besides its entry (see `chainedLine.ts`): the hash chain, and
 * `history_len`, the number of history items once the line is applied — so a listing learns a
 * session's size from its last line. All absent in logs written before they existed.
 */
export const SessionLineMetaSchema = z.object({
  hash: Hash.optional(),
  prev_hash: Hash.nullable().optional(),
  ts: Ts,
  history_len: z.number().int().nonnegative().optional(),
});
export type SessionLineMeta = z.infer<typeof SessionLineMetaSchema>;
