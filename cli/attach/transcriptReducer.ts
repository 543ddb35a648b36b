import type { Event, PodStatus, Segment } from '../../core/protocol/index.js';
import { nextActivity, type Activity } from './activity.js';
import type { Block, BlockOf, NoteTone } from './Block.js';
import { historyToBlocks } from './historyBlocks.js';
import { SegmentKinds } from './SegmentKinds.js';

/** What a run has used so far: requests, the latest prompt size, output tokens summed. */
export interface RunUsage {
  requests: number;
  /** `input_tokens` of the latest request: the context size (not summed, which would inflate it). */
  context: number | null;
  output: number;
}

export interface TranscriptState {
  readonly blocks: readonly Block[];
  readonly nextId: number;
  readonly podName?: string;
  readonly status?: PodStatus;
  readonly sessionId?: string;
  readonly usage: RunUsage;
  /** Typed segments of every `user_message` seen by this client, to rebuild chips from history. */
  readonly typed: readonly (readonly Segment[])[];
  /** Alerts already shown (the pod replays its buffer to every new connection). */
  readonly alertKeys: ReadonlySet<string>;
  /** The assistant block text deltas append to, until `text_done` or the next request. */
  readonly openAssistant?: number;
  /** The segment kinds and sigils of the pod (from `welcome`). */
  readonly kinds: SegmentKinds;
  /** What the live run is doing (undefined when no run is). */
  readonly activity?: Activity;
}

export const emptyTranscript: TranscriptState = {
  blocks: [],
  nextId: 1,
  usage: { requests: 0, context: null, output: 0 },
  typed: [],
  alertKeys: new Set(),
  kinds: SegmentKinds.builtIn,
};

/** Adds a client-side line (a notice, a failed request) that survives history rebuilds. */
export function addNote(state: TranscriptState, tone: NoteTone, text: string, keep = true): TranscriptState {
  return {
    ...state,
    blocks: [...state.blocks, { kind: 'note', id: state.nextId, tone, text, keep }],
    nextId: state.nextId + 1,
  };
}

/**
 * Applies a batch of events (what arrived since the last frame). Consecutive `text_delta`s are
 * joined first, so a burst of thousands of deltas costs one block update.
 */
export function reduceEvents(state: TranscriptState, events: readonly Event[]): TranscriptState {
  let s = state;
  let text: string[] = [];
  const flushText = () => {
    if (text.length > 0) s = reduceTranscript(s, { event: 'text_delta', data: { text: text.join('') } });
    text = [];
  };
  for (const e of events) {
    if (e.event === 'text_delta') text.push(e.data.text);
    else {
      flushText();
      s = reduceTranscript(s, e);
    }
  }
  flushText();
  return s;
}

/** Applies one pod event to the transcript. Pure: the old state is never changed. */
export function reduceTranscript(state: TranscriptState, event: Event): TranscriptState {
  const next = apply(state, event);
  const activity = nextActivity(state.activity, event, next.blocks);
  return activity === next.activity ? next : { ...next, activity };
}

function apply(state: TranscriptState, event: Event): TranscriptState {
  switch (event.event) {
    case 'welcome':
      return {
        ...state,
        podName: event.data.pod_name,
        sessionId: event.data.session_id,
        status: event.data.status,
        kinds: SegmentKinds.fromWelcome(event.data.segments),
      };
    case 'status':
      return { ...state, status: event.data.status, sessionId: event.data.session_id };
    case 'user_message': {
      const next = push({ ...state, openAssistant: undefined }, { kind: 'user', segments: event.data.segments });
      return {
        ...next,
        typed: [...state.typed, event.data.segments],
        usage: { requests: 0, context: null, output: 0 },
      };
    }
    case 'turn_start':
      return { ...state, openAssistant: undefined, usage: { ...state.usage, requests: state.usage.requests + 1 } };
    case 'text_delta': {
      const open = state.openAssistant !== undefined ? findBlock(state, state.openAssistant, 'assistant') : undefined;
      if (!open) {
        const next = push(state, { kind: 'assistant', text: event.data.text, done: false });
        return { ...next, openAssistant: state.nextId };
      }
      return replace(state, open.index, { ...open.block, text: open.block.text + event.data.text });
    }
    case 'text_done': {
      const open = state.openAssistant !== undefined ? findBlock(state, state.openAssistant, 'assistant') : undefined;
      // The full text wins over the deltas (a client that lagged may have missed some).
      if (!open) return push(state, { kind: 'assistant', text: event.data.text, done: true });
      return {
        ...replace(state, open.index, { ...open.block, text: event.data.text || open.block.text, done: true }),
        openAssistant: undefined,
      };
    }
    case 'tool_call_start':
      return push(
        { ...state, openAssistant: undefined },
        { kind: 'tool', callId: event.data.id, name: event.data.name, args: '', state: 'pending' },
      );
    case 'tool_call_args_delta':
      return updateTool(state, event.data.id, (t) => ({ ...t, args: t.args + event.data.json, state: 'streaming' }));
    case 'tool_call_done':
      return updateTool(
        state,
        event.data.id,
        (t) => ({ ...t, name: event.data.name, args: event.data.arguments, state: 'running' }),
        event.data.name,
      );
    case 'tool_result':
      return updateTool(state, event.data.id, (t) => ({
        ...t,
        state: event.data.is_error ? 'error' : 'done',
        summary: event.data.summary,
        output: event.data.output,
      }));
    case 'usage':
      return {
        ...state,
        usage: {
          ...state.usage,
          context: event.data.input_tokens !== null ? Number(event.data.input_tokens) : state.usage.context,
          output: state.usage.output + Number(event.data.output_tokens ?? 0),
        },
      };
    case 'turn_end':
      // Calls whose arguments never finished streaming will not run.
      return mapTools(state, (t) =>
        t.state === 'pending' || t.state === 'streaming' ? { ...t, state: 'incomplete' } : t,
      );
    case 'run_end': {
      const ended = mapTools({ ...state, openAssistant: undefined }, (t) =>
        t.state === 'done' || t.state === 'error' ? t : { ...t, state: 'incomplete' },
      );
      const { requests, context, output } = state.usage;
      const outcome = event.data.result === 'finished' ? '' : ` · ${RESULT_TEXT[event.data.result]}`;
      return addNote(
        ended,
        'stats',
        `${requests} ${requests === 1 ? 'request' : 'requests'} · ↑${formatTokens(context)} ↓${formatTokens(output)}${outcome}`,
        false,
      );
    }
    case 'error':
      return addNote(
        { ...state, openAssistant: undefined },
        'error',
        `[error ${event.data.code}] ${event.data.message}`,
      );
    case 'alert': {
      const a = event.data;
      const key = `${a.timestamp_ms}\u0000${a.level}\u0000${a.source}\u0000${a.message}`;
      if (state.alertKeys.has(key)) return state;
      const next = addNote(
        state,
        a.level === 'error' ? 'alert-error' : 'alert',
        `[${a.level === 'error' ? 'notice error' : 'notice'}] ${SOURCE_LABEL[a.source] ?? a.source}: ${a.message}`,
      );
      return { ...next, alertKeys: new Set([...state.alertKeys, key]) };
    }
    case 'compact_start':
      return addNote(state, 'compact', '[compact] starting');
    case 'compact_done':
      return {
        ...addNote(state, 'compact', `[compact] done (new session ${event.data.new_session_id.slice(0, 8)})`),
        sessionId: event.data.new_session_id,
      };
    case 'compact_failed':
      return addNote(state, 'compact-error', `[compact error] ${event.data.error}`);
    case 'lagged':
      return addNote(
        state,
        'info',
        `[resync] events ${event.data.from_seq}–${event.data.to_seq} were skipped; reloading the history`,
      );
    case 'shutdown':
      return addNote({ ...state, openAssistant: undefined }, 'info', '[pod] shut down');
    case 'notification':
      return push(state, { kind: 'notification', text: event.data.message, source: event.data.source, live: true });
    case 'history': {
      // History-backed blocks are replaced; notes worth keeping (alerts, errors, compaction) stay,
      // after them, and so do live notifications the history does not hold yet.
      const rebuilt = historyToBlocks(event.data.items, state.typed, state.nextId);
      const committed = rebuilt.blocks.flatMap((b) => (b.kind === 'notification' ? [b.text] : []));
      const kept = state.blocks.filter((b) => {
        if (b.kind === 'note') return b.keep;
        if (b.kind !== 'notification' || !b.live) return false;
        const at = committed.indexOf(b.text);
        if (at >= 0) committed.splice(at, 1);
        return at < 0;
      });
      return { ...state, blocks: [...rebuilt.blocks, ...kept], nextId: rebuilt.nextId, openAssistant: undefined };
    }
    default:
      return state; // ack, completions: replies handled by whoever asked
  }
}

const RESULT_TEXT = {
  paused: 'paused',
  limit_reached: 'turn limit reached',
  cancelled: 'cancelled',
  finished: 'finished',
} as const;
const SOURCE_LABEL: Record<string, string> = { agents_md: 'AGENTS.md' };

/** `1234` → `1.2k`, `2500000` → `2.5M`; unknown → `?`. */
export function formatTokens(n: number | null): string {
  if (n === null) return '?';
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
}

type NewBlock = Block extends infer B ? (B extends Block ? Omit<B, 'id'> : never) : never;

function push(state: TranscriptState, block: NewBlock): TranscriptState {
  return { ...state, blocks: [...state.blocks, { ...block, id: state.nextId } as Block], nextId: state.nextId + 1 };
}

function replace(state: TranscriptState, index: number, block: Block): TranscriptState {
  const blocks = state.blocks.slice();
  blocks[index] = block;
  return { ...state, blocks };
}

function findBlock<K extends Block['kind']>(
  state: TranscriptState,
  id: number,
  kind: K,
): { index: number; block: BlockOf<K> } | undefined {
  // The block looked for is almost always the last one.
  for (let i = state.blocks.length - 1; i >= 0; i--) {
    const b = state.blocks[i];
    if (b.id === id) return b.kind === kind ? { index: i, block: b as BlockOf<K> } : undefined;
  }
  return undefined;
}

/** Updates the latest tool block of `callId` (adding one when the start was missed). */
function updateTool(
  state: TranscriptState,
  callId: string,
  f: (t: BlockOf<'tool'>) => BlockOf<'tool'>,
  name = '?',
): TranscriptState {
  for (let i = state.blocks.length - 1; i >= 0; i--) {
    const b = state.blocks[i];
    if (b.kind === 'tool' && b.callId === callId) return replace(state, i, f(b));
  }
  const added = push(
    { ...state, openAssistant: undefined },
    { kind: 'tool', callId, name, args: '', state: 'pending' },
  );
  return replace(added, added.blocks.length - 1, f(added.blocks[added.blocks.length - 1] as BlockOf<'tool'>));
}

function mapTools(state: TranscriptState, f: (t: BlockOf<'tool'>) => BlockOf<'tool'>): TranscriptState {
  let changed = false;
  const blocks = state.blocks.map((b) => {
    if (b.kind !== 'tool') return b;
    const n = f(b);
    if (n !== b) changed = true;
    return n;
  });
  return changed ? { ...state, blocks } : state;
}
