import type { Hooks } from '../hooks/createHooks.js';
import type { SegmentInput } from '../hooks/HookTypes.js';
import { formatZodError } from '../errors/formatZodError.js';
import { messageItem, type HistoryItem } from '../history/HistoryItem.js';
import { KNOWN_SEGMENT_SCHEMAS, UnknownSegment, formatBytes, segmentKind, type Segment } from '../protocol/index.js';
import type { SegmentKindRegistry } from '../segments/SegmentKindRegistry.js';
import { ResolutionSchema, type Resolution } from './Resolution.js';
import type { ResolveContext } from './ResolveContext.js';

/** A run's input after resolution: what the model sees, and what clients must be told. */
export interface ResolvedInput {
  /** The user message: inline segments and placeholders, in order. */
  userText: string;
  /**
   * `userText` as parts: a number is the index of a segment whose own `content` was inlined
   * as is (text, paste), a string is literal text. Lets the session log keep a paste once.
   */
  userParts: (string | number)[];
  /** System items placed right after the user message (`[File: …]`, `[Knowledge: …]`). */
  contextItems: HistoryItem[];
  /** System instructions for this run only (`[Workflow: …]`). */
  instructions: string[];
  /** Alert messages (level warn): every fallback and every resolver warning. */
  alerts: string[];
}

/** What the user referred to, for placeholders and alerts: the declared field, else a usual one. */
function refOf(kind: string, payload: Record<string, unknown>, field: string | undefined): string {
  for (const key of field ? [field, 'path', 'slug', 'ref', 'url', 'id'] : ['path', 'slug', 'ref', 'url', 'id']) {
    const v = payload[key];
    // A declared field shows what was sent even when it is not a string (that is often why it failed).
    const shown =
      typeof v === 'string' ? v : key === field && (typeof v === 'number' || typeof v === 'boolean') ? String(v) : '';
    if (shown !== '') return shown.length > 200 ? `${shown.slice(0, 200)}…` : shown;
  }
  return kind;
}

/**
 * Resolves each segment through `resolveSegment.for(kind)` (ARCHITECTURE §5). A kind without a
 * resolver, a declining or failing resolver, an `unresolved` result or an invalid result all
 * fall back the same way: a placeholder in the model's context at the segment's place
 * (`[unresolved <kind>: <ref>]`, or `[unknown input: kind=<kind>]` for a kind the protocol does
 * not know), plus an alert naming the kind and the reason. Nothing is dropped; nothing throws.
 */
export async function resolveSegments(
  hooks: Hooks,
  kinds: SegmentKindRegistry,
  segments: readonly Segment[],
  makeContext: (index: number) => ResolveContext,
  maxBytes = Infinity,
): Promise<ResolvedInput> {
  // What each segment is, once: its resolution kind and the object its resolvers receive.
  const inputs = segments.map((segment) => ({
    kind: segmentKind(segment),
    payload: (segment instanceof UnknownSegment ? segment.raw : segment) as SegmentInput,
  }));
  // Segments are independent: resolve them concurrently (bounded), assemble in input order.
  const outcomes = new Array<Outcome>(segments.length);
  let next = 0;
  // What the resolutions so far hold: past `maxBytes` no more are started (380 @refs to one
  // 256 KiB file made one run's input longer than a JS string can be, and wedged the pod).
  let resolvedBytes = 0;
  const bytes = new Array<number>(segments.length);
  const worker = async () => {
    for (let i = next++; i < segments.length; i = next++) {
      if (resolvedBytes > maxBytes) break;
      outcomes[i] = await resolveOne(hooks, kinds, segments[i], inputs[i].kind, inputs[i].payload, () =>
        makeContext(i),
      );
      bytes[i] = outcomeBytes(outcomes[i]);
      resolvedBytes += bytes[i];
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, segments.length) }, worker));

  const out: ResolvedInput = { userText: '', userParts: [], contextItems: [], instructions: [], alerts: [] };
  const literal = (text: string) => {
    out.userText += text;
    out.userParts.push(text);
  };
  // Assembled in input order within the budget: the first segment past it (or never started)
  // and all after it are placeholders, said in one alert (not one per segment).
  let overFrom = 0;
  for (let used = 0; overFrom < segments.length; overFrom++) {
    if (outcomes[overFrom] === undefined || used + bytes[overFrom] > maxBytes) break;
    used += bytes[overFrom];
  }
  for (let i = 0; i < segments.length; i++) {
    const { kind, payload } = inputs[i];
    const ref = refOf(kind, payload, kinds.get(kind)?.field);
    if (i >= overFrom) {
      literal(`[left out ${kind}: ${ref}]`);
      // First among the alerts: the cap below must not hide it behind per-segment ones.
      if (i === overFrom)
        out.alerts.unshift(
          `this run's input is over ${formatBytes(maxBytes)} (limits.runInputBytes): ${segments.length - overFrom} of its ` +
            `${segments.length} segments, from ${kind} ${ref} on, were left out; the model sees a placeholder for each`,
        );
      continue;
    }
    const o = outcomes[i];
    const fallback = (reason: string, shownRef = ref) => {
      literal(o.handled ? `[unresolved ${kind}: ${shownRef}]` : `[unknown input: kind=${kind}]`);
      const sigil = kinds.get(kind)?.sigil;
      const what = sigil
        ? `${kind} ${sigil}${shownRef}`
        : `${kind} segment${shownRef !== kind ? ` (${shownRef})` : ''}`;
      out.alerts.push(`${what} was not resolved (${reason}); the model sees a placeholder`);
    };
    if ('failed' in o) {
      fallback(o.failed);
      continue;
    }
    const result = o.result;
    switch (result.type) {
      case 'inline':
        if (result.text === payload.content) {
          out.userText += result.text;
          out.userParts.push(i);
        } else {
          literal(result.text);
        }
        break;
      case 'context': {
        const text = `[${result.label}]\n${result.text}`;
        if (result.role === 'instruction') out.instructions.push(text);
        else out.contextItems.push(messageItem('system', text));
        if (result.warning) out.alerts.push(result.warning);
        break;
      }
      case 'unresolved':
        fallback(result.reason, result.ref ?? ref);
        break;
    }
  }
  // One alert per segment, bounded: a run of 10,000 unknown segments is not 10,000 alerts (nor
  // the 512 a new client is replayed); the model still sees every placeholder.
  if (out.alerts.length > MAX_ALERTS) {
    const more = out.alerts.length - (MAX_ALERTS - 1);
    out.alerts.splice(MAX_ALERTS - 1, more, `… and ${more} more alerts about this run's input, not shown one by one`);
  }
  return out;
}

/** UTF-8 bytes a resolution adds to the model's context (a failure: its placeholder, ~nothing). */
function outcomeBytes(o: Outcome): number {
  if (!('result' in o)) return 0;
  const r = o.result;
  if (r.type === 'inline') return Buffer.byteLength(r.text);
  if (r.type === 'context') return Buffer.byteLength(r.text) + Buffer.byteLength(r.label);
  return 0;
}

/** Alerts one run's input gives at most (the last says how many more there were). */
const MAX_ALERTS = 20;

/** Segments resolved at once (bounded so hundreds of @refs do not exhaust file descriptors). */
const CONCURRENCY = 8;

type Outcome = { handled: boolean } & ({ result: Resolution } | { failed: string });

/**
 * Runs the resolvers of one segment; every way of not resolving becomes `failed` with a reason.
 * A declared kind's schema validates the payload first (a segment the protocol decoded with the
 * same schema is not checked twice).
 */
async function resolveOne(
  hooks: Hooks,
  kinds: SegmentKindRegistry,
  segment: Segment,
  kind: string,
  payload: SegmentInput,
  makeContext: () => ResolveContext,
): Promise<Outcome> {
  const hook = hooks.resolveSegment.get(kind);
  const declared = kinds.get(kind);
  const handled =
    Object.hasOwn(KNOWN_SEGMENT_SCHEMAS, kind) ||
    declared !== undefined ||
    (hook !== undefined && hook.taps.length > 0);
  if (!hook || hook.taps.length === 0) {
    return {
      handled,
      failed: handled ? `no resolver plugin for ${kind}` : `no plugin handles segments of kind "${kind}"`,
    };
  }
  let input = payload;
  const known = KNOWN_SEGMENT_SCHEMAS as Record<string, unknown>;
  if (declared && !(known[kind] === declared.schema && !(segment instanceof UnknownSegment))) {
    const parsed = declared.parse(payload);
    if (!parsed.ok)
      return { handled, failed: `invalid ${kind} segment: ${formatZodError(parsed.error, declared.schema)}` };
    input = parsed.segment as SegmentInput;
  }
  try {
    const raw = await hook.promise(input, makeContext());
    if (raw === undefined) return { handled, failed: 'every resolver declined it' };
    const parsed = ResolutionSchema.safeParse(raw);
    if (!parsed.success)
      return {
        handled,
        failed: `a resolver returned an invalid result: ${parsed.error.issues[0]?.message ?? 'bad shape'}`,
      };
    return { handled, result: parsed.data };
  } catch (e) {
    return { handled, failed: oneLine((e as Error)?.message ?? String(e)) };
  }
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').slice(0, 500);
}
