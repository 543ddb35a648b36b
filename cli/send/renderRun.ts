import type { UnknownEvent } from '../../client/PodClient.js';
import { isAnotherClientsError } from '../../client/v1Replies.js';
import type { ErrorCode, Event } from '../../core/protocol/index.js';
import { permissionEventLine, type AskTarget } from '../permissionLines.js';
import { mainArgument, outcomeText } from './toolCallLine.js';

/** How a span of output looks on a terminal; plain text ignores it. */
export type Style = 'reply' | 'ok' | 'fail' | 'name' | 'dim' | 'warn' | 'error';
export interface Span {
  text: string;
  style: Style;
}
/** Something to write: to stdout (`out`, the transcript) or stderr (`err`, alerts). */
export interface Piece {
  to: 'out' | 'err';
  spans: Span[];
}

/** How the run ended, once it did. */
export type Outcome =
  | { kind: 'finished' | 'limit_reached' | 'paused' | 'cancelled' | 'shutdown' | 'closed' }
  | { kind: 'failed'; code: ErrorCode; message: string };

export interface RenderOptions {
  /** `--quiet`: the reply's text only (alerts still go to stderr). */
  quiet: boolean;
  /** A v1 pod broadcasts other clients' refusals: they are not this run's failure. */
  v1: boolean;
  /** stdout and stderr are the same terminal: an alert first ends the transcript's line. */
  sharedTerminal: boolean;
  /** The pod this run goes to, for the `yoi approve ID --pod NAME` a permission ask prints. */
  target?: AskTarget;
}

export interface RenderState {
  readonly options: RenderOptions;
  /** The pod acknowledged this client's run; events before that belong to no one here. */
  readonly accepted: boolean;
  /** The transcript's cursor is at the start of a line. */
  readonly atLineStart: boolean;
  /** Something was written to the transcript in this run. */
  readonly written: boolean;
  /** A new turn began: a blank line goes before its first output. */
  readonly breakPending: boolean;
  /** Tool calls announced and not answered yet, by id. */
  readonly calls: Readonly<Record<string, { name: string; arg?: string }>>;
  readonly usage: { readonly requests: number; readonly context: number | null; readonly output: number };
  /** What the pod is doing while nothing streams (for a spinner): `thinking`, `Read src/a.ts`. */
  readonly activity?: string;
  readonly outcome?: Outcome;
  readonly lastUnknown?: string;
  /** Characters of the current text block written so far. */
  readonly textShown: number;
  /** Deltas of the current text block were lost (`lagged`): its rest comes from `text_done`. */
  readonly textLost: boolean;
}

export interface Rendered {
  state: RenderState;
  pieces: Piece[];
}

export function initialRenderState(options: RenderOptions): RenderState {
  return {
    options,
    accepted: false,
    atLineStart: true,
    written: false,
    breakPending: false,
    calls: {},
    usage: { requests: 0, context: null, output: 0 },
    textShown: 0,
    textLost: false,
  };
}

const span = (text: string, style: Style = 'reply'): Span => ({ text, style });

/**
 * `yoi send`'s view of a run as a pure reducer: each event gives the next state and what to
 * write. Turns are separated by a blank line; tool calls show as `✓ Read src/math.ts → 6
 * lines`; notifications, child reports and compaction as `·` lines; the run ends with a usage
 * line. Events before the pod acknowledged this run, and after it ended, are ignored.
 */
export function renderEvent(state: RenderState, event: Event): Rendered {
  if (state.outcome) return { state, pieces: [] };
  if (!state.accepted) {
    const accepted = event.event === 'ack' && event.data.method === 'run';
    return { state: accepted ? { ...state, accepted, activity: 'thinking' } : state, pieces: [] };
  }
  const r = new Builder(state);
  switch (event.event) {
    case 'turn_start':
      return r
        .set({
          breakPending: state.written,
          activity: 'thinking',
          usage: { ...state.usage, requests: state.usage.requests + 1 },
        })
        .done();
    case 'text_delta':
      // After a gap the text is written from `text_done`, which holds all of it.
      if (state.textLost) return r.done();
      return r
        .text(event.data.text)
        .set({ activity: undefined, textShown: state.textShown + event.data.text.length })
        .done();
    case 'text_done': {
      // The deltas written are the block's start: a gap is filled with the rest of it.
      const rest = state.textLost ? event.data.text.slice(state.textShown) : '';
      return (rest.length > 0 ? r.text(rest) : r).set({ textShown: 0, textLost: false }).done();
    }
    case 'tool_call_start':
      return r.set({ calls: withCall(state.calls, event.data.id, { name: event.data.name }) }).done();
    case 'tool_call_done':
      return r
        .set({
          calls: withCall(state.calls, event.data.id, {
            name: event.data.name,
            arg: mainArgument(event.data.arguments),
          }),
        })
        .done();
    case 'turn_end':
      return r.set({ activity: running(state.calls) ?? state.activity }).done();
    case 'tool_result': {
      const call = state.calls[event.data.id];
      const { [event.data.id]: _done, ...calls } = state.calls;
      const mark = event.data.is_error ? span('✗', 'fail') : span('✓', 'ok');
      const outcome = span(` → ${outcomeText(event.data.summary)}`, event.data.is_error ? 'fail' : 'dim');
      return r
        .line([mark, span(` ${call?.name ?? 'tool'}`, 'name'), ...(call?.arg ? [span(` ${call.arg}`)] : []), outcome])
        .set({ calls, activity: running(calls) ?? 'thinking' })
        .done();
    }
    case 'usage': {
      const { input_tokens: input, output_tokens: output } = event.data;
      return r
        .set({
          usage: {
            ...state.usage,
            context: input !== null ? Number(input) : state.usage.context,
            output: state.usage.output + Number(output ?? 0),
          },
        })
        .done();
    }
    case 'compact_start':
      return r.note('compacting the history…').set({ activity: 'compacting' }).done();
    case 'compact_done':
      return r
        .note(`history compacted: the pod goes on in session ${event.data.new_session_id}`)
        .set({ activity: 'thinking' })
        .done();
    case 'compact_failed':
      return r.note(`compaction failed: ${event.data.error}`, 'warn').done();
    case 'notification':
      return r
        .note(
          event.data.source === 'pod_event'
            ? `report: ${oneLine(event.data.message)}`
            : `notification: ${oneLine(event.data.message)}`,
        )
        .done();
    case 'alert':
      return r
        .err([span(`[${event.data.level}] ${event.data.message}`, event.data.level === 'error' ? 'error' : 'warn')])
        .done();
    case 'lagged':
      return r
        .err([
          span(
            `(events ${event.data.from_seq}–${event.data.to_seq} were not delivered: this client read too slowly; the reply's text is completed when it ends)`,
            'dim',
          ),
        ])
        .set({ textLost: true })
        .done();
    case 'run_end':
      if (event.data.result === 'limit_reached') r.note('stopped: the run reached its maxTurns limit', 'warn');
      return r.usageLine().end({ kind: event.data.result }).done();
    case 'error':
      // Replies (refusals of this client's requests) are not the run's failure; nor, on v1,
      // other clients' refusals, which a v1 pod broadcasts.
      if (event.request_id !== undefined || (state.options.v1 && isAnotherClientsError(event))) return r.done();
      return r.usageLine().end({ kind: 'failed', code: event.data.code, message: event.data.message }).done();
    case 'shutdown':
      return r.end({ kind: 'shutdown' }).done();
    default:
      return r.done();
  }
}

/** An event this build cannot read (a newer pod's, a plugin's): one dim line, not repeated. */
export function renderUnknownEvent(state: RenderState, event: UnknownEvent): Rendered {
  if (state.outcome || !state.accepted) return { state, pieces: [] };
  // A permission ask stops the run until someone answers: say so on stderr, with how to answer.
  const asked = permissionEventLine(event, state.options.target ?? { name: '', flag: '' });
  if (asked) {
    const r = new Builder(state).err([span(asked.line, asked.request ? 'warn' : 'dim')]);
    return r
      .set({
        activity: asked.request ? `waiting for permission ${asked.request.id}` : (running(state.calls) ?? 'thinking'),
      })
      .done();
  }
  if (state.lastUnknown === event.event) return { state, pieces: [] };
  const data = (typeof event.data === 'object' && event.data !== null ? event.data : {}) as Record<string, unknown>;
  const about = ['summary', 'message', 'text', 'tool']
    .map((k) => data[k])
    .find((v): v is string => typeof v === 'string' && v !== '');
  return new Builder(state)
    .note(`${event.event}${about ? `: ${oneLine(about)}` : ''}`)
    .set({ lastUnknown: event.event })
    .done();
}

/** The connection closed before the run ended. */
export function renderClosed(state: RenderState): Rendered {
  if (state.outcome) return { state, pieces: [] };
  return new Builder(state).end({ kind: 'closed' }).done();
}

/** Collects one event's output; keeps the line position and the turn separation right. */
class Builder {
  private readonly pieces: Piece[] = [];

  constructor(private state: RenderState) {}

  set(patch: Partial<RenderState>): this {
    this.state = { ...this.state, ...patch };
    return this;
  }

  text(text: string): this {
    if (text === '') return this;
    this.separate();
    this.pieces.push({ to: 'out', spans: [span(text)] });
    return this.set({ atLineStart: text.endsWith('\n'), written: true });
  }

  line(spans: Span[]): this {
    if (this.state.options.quiet) return this;
    this.separate();
    this.startLine();
    this.pieces.push({ to: 'out', spans: [...spans, span('\n')] });
    return this.set({ atLineStart: true, written: true });
  }

  note(text: string, style: Style = 'dim'): this {
    return this.line([span(`· ${text}`, style)]);
  }

  err(spans: Span[]): this {
    if (this.state.options.sharedTerminal) this.startLine();
    this.pieces.push({ to: 'err', spans: [...spans, span('\n')] });
    return this;
  }

  usageLine(): this {
    const { requests, context, output } = this.state.usage;
    if (requests === 0) return this;
    const plural = requests === 1 ? 'request' : 'requests';
    return this.set({ breakPending: false }).line([
      span(
        `${requests} ${plural} · context ${formatTokens(context)} tokens · ${formatTokens(output)} output tokens`,
        'dim',
      ),
    ]);
  }

  end(outcome: Outcome): this {
    this.startLine();
    return this.set({ outcome, activity: undefined });
  }

  done(): Rendered {
    return { state: this.state, pieces: this.pieces };
  }

  private separate(): void {
    if (!this.state.breakPending) return;
    this.startLine();
    this.pieces.push({ to: 'out', spans: [span('\n')] });
    this.state = { ...this.state, breakPending: false };
  }

  private startLine(): void {
    if (this.state.atLineStart) return;
    this.pieces.push({ to: 'out', spans: [span('\n')] });
    this.state = { ...this.state, atLineStart: true };
  }
}

/** Calls waiting for a result that are remembered; beyond, the oldest is forgotten (its line says `tool`). */
const MAX_OPEN_CALLS = 256;

function withCall(calls: RenderState['calls'], id: string, call: { name: string; arg?: string }): RenderState['calls'] {
  const next = { ...calls, [id]: call };
  const ids = Object.keys(next);
  if (ids.length > MAX_OPEN_CALLS) delete next[ids[0]];
  return next;
}

/** The calls still running, as the spinner says it: `Read src/a.ts (+1 more)`. */
function running(calls: RenderState['calls']): string | undefined {
  const open = Object.values(calls);
  if (open.length === 0) return undefined;
  const [first] = open;
  return `${first.name}${first.arg ? ` ${first.arg}` : ''}${open.length > 1 ? ` (+${open.length - 1} more)` : ''}`;
}

function oneLine(text: string): string {
  const lines = text.trim().split('\n');
  return lines.length > 1 ? `${lines[0]} …` : lines[0];
}

function formatTokens(n: number | null): string {
  if (n === null) return '?';
  // What toLocaleString('en-US') prints for a safe integer, without loading ICU's locale data
  // (~50 ms, the costliest step of a short `yoi send`).
  if (Number.isSafeInteger(n)) return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
  return n.toLocaleString('en-US');
}
