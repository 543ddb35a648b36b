import { z } from 'zod';
import type { EventBus } from '../bus/EventBus.js';
import type { Hooks } from '../hooks/createHooks.js';
import type { PodInfo, RunEndInfo } from '../hooks/HookTypes.js';
import { messageItem, type HistoryItem } from '../history/HistoryItem.js';
import type { ResolveContext } from '../pipeline/ResolveContext.js';
import { resolveSegments } from '../pipeline/resolveSegments.js';
import type { LlmRequest, Provider, ToolDefinition } from '../provider/Provider.js';
import { podEventSource, type ErrorCode, type Method, type PodEvent, type PodStatus, type RunResult, type Segment } from '../protocol/index.js';
import type { SessionLog } from '../session/SessionLog.js';
import { estimateItemsTokens, estimateTextTokens, loadTokenizer } from '../tokens/estimateTokens.js';
import type { Tool } from '../tools/Tool.js';
import { notificationText } from './notificationText.js';
import { CANCELLED_BY_USER, INTERRUPTED_BY_USER, INTERRUPT_NOTE, closeOrphans, orphanToolCalls } from './orphanToolCalls.js';
import { RecentRequestIds } from './RecentRequestIds.js';
import { renderPodEvent } from './renderPodEvent.js';
import { runToolCalls } from './runToolCalls.js';
import { AbortedError, ProviderError } from '../provider/providerErrors.js';
import { streamTurn } from './streamTurn.js';

/** What the controller answers to a method: accepted, or rejected with a code. */
export type Reply = { ok: true } | { ok: false; code: ErrorCode; message: string };

type Trigger = RunEndInfo['trigger'];
type Outcome = { result: RunResult } | { result: 'error'; code: ErrorCode; message: string };

/** Who sent a method: the `hello` client name of its connection. */
export interface MethodOrigin {
  readonly client?: string;
}

interface ActiveRun {
  readonly trigger: Trigger;
  readonly client?: string;
  readonly abort: AbortController;
  stop?: 'pause' | 'cancel';
  instructions: string[];
  done?: Promise<void>;
}

export interface ControllerOptions {
  hooks: Hooks;
  bus: EventBus;
  provider: Provider;
  tools: ReadonlyMap<string, Tool>;
  pod: PodInfo;
  session: () => SessionLog;
  history: HistoryItem[];
  nextTurn: number;
  systemPrompt: string;
  maxTurns: number;
  toolOutputBytes: number;
  /** Called on every status change (writes status.json, broadcasts v2 `status`). */
  onStatus: (status: PodStatus) => void;
  alert: (message: string) => void;
  resolveContext: (index: number, signal: AbortSignal) => ResolveContext;
  /** Runs before each LLM request (mid-turn compaction); may replace history. */
  beforeRequest?: (signal: AbortSignal) => Promise<void>;
  /** Runs when a run ended and the pod is idle (post-run compaction). */
  afterIdle?: () => Promise<void>;
  /** After each LLM request: the usage the provider reported and the history length it saw. */
  onUsage?: (usage: { input_tokens?: number; output_tokens?: number }, historyLength: number) => void;
  /** `pause`/`cancel` while work runs with no active run (a compaction); true if it was stopped. */
  interruptIdleWork?: (kind: 'pause' | 'cancel') => boolean;
}

/**
 * The pod's state machine (idle / running / paused), after yoi with the corrections of
 * ARCHITECTURE §4.2: every run ends with exactly one terminal event (`run_end`, or `error` for a
 * failed run); orphan tool calls are closed and persisted on every path; notifications are
 * committed to history and the log, and start a run when the pod is idle; `maxTurns` counts
 * tool rounds per run.
 */
export class PodController {
  private state: PodStatus = 'idle';
  private active?: ActiveRun;
  private readonly notes: string[] = [];
  /** Pod events already applied, by reporting pod: a retried report is acknowledged, not re-applied. */
  private readonly reports = new RecentRequestIds();
  private nextTurn: number;
  private readonly toolDefs: ToolDefinition[];
  private stopping = false;
  /** The latest run's whole lifecycle, including post-run hooks and compaction. */
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly opts: ControllerOptions) {
    this.nextTurn = opts.nextTurn;
    this.toolDefs = toolDefinitions(opts.tools.values());
  }

  /**
   * The tools of one LLM request: the static ones, plus what `listTools` taps add (tools that
   * change at run time); the first tool of a name wins. Without taps, the static set as built.
   */
  private currentTools(): { tools: ReadonlyMap<string, Tool>; defs: ToolDefinition[] } {
    const { hooks, tools, pod } = this.opts;
    if (hooks.listTools.taps.length === 0) return { tools, defs: this.toolDefs };
    const current = new Map<string, Tool>();
    for (const tool of hooks.listTools.call([...tools.values()], pod)) if (!current.has(tool.name)) current.set(tool.name, tool);
    return { tools: current, defs: toolDefinitions(current.values()) };
  }

  get status(): PodStatus {
    return this.state;
  }

  /** True while a run executes (including its mid-turn compaction). */
  get busy(): boolean {
    return this.active !== undefined;
  }

  /** The system prompt of the session (without per-run instructions). */
  get systemPrompt(): string {
    return this.opts.systemPrompt;
  }

  get history(): HistoryItem[] {
    return this.opts.history;
  }

  /** Replaces the history (compaction rotated the session). */
  replaceHistory(items: readonly HistoryItem[]): void {
    this.opts.history.length = 0;
    for (const item of items) this.opts.history.push(item);
  }

  /** Lets the compaction lifecycle report `compacting` and return to the previous state. */
  setStatus(status: PodStatus): void {
    if (this.state === status) return;
    this.state = status;
    this.opts.onStatus(status);
  }

  /** Resolves when no run is active. */
  async whenSettled(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.tail) {
      seen = this.tail;
      await seen;
    }
  }

  handle(method: Method, origin: MethodOrigin = {}): Reply | Promise<Reply> {
    if (this.stopping) return reject('internal', 'Pod is shutting down');
    switch (method.method) {
      case 'run':
        if (this.active) return reject('already_running', 'Pod is already executing a turn');
        if (this.state === 'compacting') return reject('already_running', 'Pod is compacting its history');
        this.start('run', method.params.input, origin.client);
        return { ok: true };
      case 'resume':
        if (this.active) return reject('already_running', 'Pod is already executing a turn');
        if (this.state === 'compacting') return reject('already_running', 'Pod is compacting its history');
        if (this.state !== 'paused') return reject('not_paused', 'Pod is not paused');
        this.start('resume', undefined, origin.client);
        return { ok: true };
      case 'cancel':
        if (this.active) {
          this.active.stop = 'cancel';
          this.active.abort.abort();
          return { ok: true };
        }
        if (this.state === 'paused') {
          // Abandon the paused run: its open tool calls are closed, never re-executed.
          this.commit(closeOrphans(this.history, CANCELLED_BY_USER), 'interrupt');
          this.opts.session().sync();
          this.setStatus('idle');
          return { ok: true };
        }
        if (this.state === 'compacting' && this.opts.interruptIdleWork?.('cancel')) return { ok: true };
        return reject('not_running', 'Pod is not running');
      case 'pause':
        if (this.active) {
          this.active.stop ??= 'pause';
          this.active.abort.abort();
          return { ok: true };
        }
        if (this.state === 'paused') return { ok: true };
        if (this.state === 'compacting' && this.opts.interruptIdleWork?.('pause')) return { ok: true };
        return reject('not_running', 'Pod is not running');
      case 'notify':
        this.notify(method.params.message, 'notify');
        return { ok: true };
      case 'pod_event':
        if (method.request_id !== undefined && !this.reports.add(podEventSource(method.params), method.request_id)) return { ok: true };
        return this.podEvent(method.params);
      default:
        return reject('invalid_request', `method \`${method.method}\` is not handled by the controller`);
    }
  }

  /** Queues a notification (committed before the next LLM request); starts a run when idle. */
  notify(text: string, trigger: Trigger): void {
    this.notes.push(text);
    if (!this.active && this.state === 'idle' && !this.stopping) this.start(trigger);
  }

  /** Stops accepting methods, cancels the active run (it still ends with its terminal event). */
  async shutdown(): Promise<void> {
    this.stopping = true;
    if (this.active) {
      this.active.stop = 'cancel';
      this.active.abort.abort();
    }
    await this.whenSettled();
  }

  private async podEvent(event: PodEvent): Promise<Reply> {
    const { hooks, pod } = this.opts;
    const kind = event.kind === 'unknown' ? event.rawKind : event.kind;
    const side = hooks.podEvent.get(kind);
    if (side && side.taps.length > 0) await side.promise(event, { ...pod, signal: AbortSignal.timeout(30_000) });
    const text = renderPodEvent(hooks, event, (m) => this.opts.alert(m));
    this.notify(text, 'pod_event');
    return { ok: true };
  }

  private start(trigger: Trigger, input?: Segment[], client?: string): void {
    const run: ActiveRun = { trigger, client, abort: new AbortController(), instructions: [] };
    const wasPaused = this.state === 'paused';
    this.active = run;
    this.setStatus('running');
    // The run's events start on the next microtask, so the requester's `ack` comes first.
    run.done = Promise.resolve().then(() => this.execute(run, input, wasPaused)).finally(() => {
      if (this.active === run) this.active = undefined;
    });
    this.tail = run.done;
  }

  private async execute(run: ActiveRun, input: Segment[] | undefined, wasPaused: boolean): Promise<void> {
    let outcome: Outcome;
    if (input) this.opts.bus.broadcast({ event: 'user_message', data: { segments: input } });
    try {
      if (wasPaused && run.trigger !== 'resume') {
        this.commit([...closeOrphans(this.history, INTERRUPTED_BY_USER), messageItem('system', INTERRUPT_NOTE)], 'interrupt');
      }
      if (input) await this.commitUserInput(input, run);
      if (run.trigger === 'resume') await this.runPendingCalls(run);
      outcome = { result: await this.turnLoop(run) };
    } catch (e) {
      if (run.abort.signal.aborted) outcome = { result: run.stop === 'pause' ? 'paused' : 'cancelled' };
      else outcome = { result: 'error', code: e instanceof ProviderError ? 'provider_error' : 'internal', message: oneLine(e) };
    }
    await this.finish(run, outcome);
  }

  private async commitUserInput(segments: Segment[], run: ActiveRun): Promise<void> {
    const { hooks, resolveContext } = this.opts;
    const resolved = await resolveSegments(hooks, segments, (i) => resolveContext(i, run.abort.signal));
    for (const message of resolved.alerts) this.opts.alert(message);
    const items: HistoryItem[] = [{ ...messageItem('user', resolved.userText), segments }, ...resolved.contextItems];
    this.history.push(...items);
    run.instructions = resolved.instructions;
    // Inlined segment contents are logged once, in `segments`; the message text refers to them.
    const byReference = resolved.userParts.some((p) => typeof p === 'number');
    this.opts.session().append({
      type: 'user_input',
      ts: Date.now(),
      segments, // written in wire form: unknown kinds keep their raw payload
      // The segments are on the entry itself; the message item is stored without them.
      items: [messageItem('user', byReference ? '' : resolved.userText), ...resolved.contextItems],
      ...(byReference ? { user_text: resolved.userParts } : {}),
      ...(resolved.instructions.length ? { instructions: resolved.instructions } : {}),
    });
    if (run.abort.signal.aborted) throw new AbortedError('aborted');
  }

  private async runPendingCalls(run: ActiveRun): Promise<void> {
    const pending = orphanToolCalls(this.history).map((c) => ({ id: c.call_id, name: c.name, arguments: c.arguments }));
    if (pending.length === 0) return;
    const results = await runToolCalls(pending, this.toolOptions(run, this.currentTools().tools));
    this.commit(results.filter((r) => r !== undefined), 'tool');
    if (run.abort.signal.aborted) throw new AbortedError('aborted');
  }

  private async turnLoop(run: ActiveRun): Promise<RunResult> {
    const { hooks, bus, provider, pod } = this.opts;
    const { signal } = run.abort;
    for (let rounds = 0; ; ) {
      if (this.opts.beforeRequest) await this.opts.beforeRequest(signal);
      this.drainNotes();
      const sent = this.history.length;
      const turn = this.nextTurn++;
      const system = [this.opts.systemPrompt, ...run.instructions].join('\n\n');
      const offered = this.currentTools();
      let request: LlmRequest = { system, items: [...this.history], tools: offered.defs, signal };
      request = await hooks.beforeTurn.promise(request, { ...pod, turn, signal });
      bus.broadcast({ event: 'turn_start', data: { turn } });
      const out = await streamTurn(provider, request, bus);
      this.opts.onUsage?.(out.usage, sent);
      const usage = {
        // A provider without usage: estimate now, and load the tokenizer so later ones are exact.
        input_tokens: out.usage.input_tokens ?? (void loadTokenizer().catch(() => undefined), estimateItemsTokens(request.items, request.system)),
        output_tokens: out.usage.output_tokens ?? estimateTextTokens(out.text),
      };
      bus.broadcast({ event: 'usage', data: usage });
      this.opts.session().append({ type: 'usage', ts: Date.now(), turn, ...usage });
      bus.broadcast({ event: 'turn_end', data: { turn, result: 'finished' } });
      const items: HistoryItem[] = [];
      if (out.text !== '') items.push(messageItem('assistant', out.text));
      for (const c of out.toolCalls) items.push({ type: 'tool_call', call_id: c.id, name: c.name, arguments: c.arguments });
      this.commit(items, 'assistant');
      await hooks.afterTurn.promise({ turn, text: out.text, toolCalls: out.toolCalls, usage }, pod);
      if (out.toolCalls.length === 0) return 'finished';
      const results = await runToolCalls(out.toolCalls, this.toolOptions(run, offered.tools));
      this.commit(results.filter((r) => r !== undefined), 'tool');
      if (signal.aborted) throw new AbortedError('aborted');
      if (++rounds >= this.opts.maxTurns) return 'limit_reached';
    }
  }

  private async finish(run: ActiveRun, outcome: Outcome): Promise<void> {
    const { bus, hooks, pod } = this.opts;
    const session = this.opts.session();
    if (outcome.result === 'cancelled') this.commit(closeOrphans(this.history, CANCELLED_BY_USER), 'interrupt');
    if (outcome.result === 'error') this.commit(closeOrphans(this.history, `[Interrupted: ${outcome.message}]`), 'interrupt');
    session.append({ type: 'run_end', ts: Date.now(), result: outcome.result, ...('message' in outcome ? { error: outcome.message } : {}) });
    session.sync();
    if (outcome.result === 'error') bus.broadcast({ event: 'error', data: { code: outcome.code, message: outcome.message } });
    else bus.broadcast({ event: 'run_end', data: { result: outcome.result } });
    this.active = undefined;
    this.setStatus(outcome.result === 'paused' ? 'paused' : 'idle');
    await hooks.runEnd.promise({
      ...pod,
      result: outcome.result,
      trigger: run.trigger,
      ...(run.client !== undefined ? { client: run.client } : {}),
      ...('message' in outcome ? { error: outcome.message } : {}),
    });
    if (this.stopping || this.state !== 'idle') return;
    if (this.opts.afterIdle) await this.opts.afterIdle();
    if (this.notes.length > 0 && !this.active && this.state === 'idle' && !this.stopping) this.start('notify');
  }

  /** Work that must finish before the pod is settled but after the run's terminal event. */
  track(work: Promise<void>): void {
    const previous = this.tail;
    this.tail = Promise.all([previous, work]).then(() => undefined);
  }

  /**
   * Work done while no run is active (a manual compaction): tracked like a run's tail, and
   * notifications that arrived meanwhile start their run once it is over.
   */
  runWhileIdle(work: () => Promise<void>): void {
    this.track(work().finally(() => {
      if (this.notes.length > 0 && !this.active && this.state === 'idle' && !this.stopping) this.start('notify');
    }));
  }

  private drainNotes(): void {
    if (this.notes.length === 0) return;
    const items = this.notes.splice(0).map((n) => messageItem('system', notificationText(n)));
    this.commit(items, 'notification');
  }

  private commit(items: HistoryItem[], source: 'assistant' | 'tool' | 'notification' | 'interrupt'): void {
    if (items.length === 0) return;
    this.history.push(...items);
    this.opts.session().append({ type: 'items', ts: Date.now(), source, items });
  }

  private toolOptions(run: ActiveRun, tools: ReadonlyMap<string, Tool>) {
    const { hooks, bus, pod } = this.opts;
    return { hooks, bus, tools, pod, signal: run.abort.signal, outputLimitBytes: this.opts.toolOutputBytes, alert: this.opts.alert };
  }
}

/** JSON Schemas of tools (cached per tool object: run-time tool sets are rebuilt per request). */
const definitions = new WeakMap<Tool, ToolDefinition>();

function toolDefinitions(tools: Iterable<Tool>): ToolDefinition[] {
  const defs: ToolDefinition[] = [];
  for (const t of tools) {
    let def = definitions.get(t);
    if (!def) {
      // `io: 'input'`: the model writes the input, so fields with a default are optional to it.
      const inputSchema = t.inputJsonSchema ?? (z.toJSONSchema(t.input, { unrepresentable: 'any', io: 'input' }) as Record<string, unknown>);
      def = { name: t.name, description: t.description, inputSchema };
      definitions.set(t, def);
    }
    defs.push(def);
  }
  return defs.sort((a, b) => a.name.localeCompare(b.name));
}

function reject(code: ErrorCode, message: string): Reply {
  return { ok: false, code, message };
}

function oneLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/\s*\n\s*/g, ' ').slice(0, 1000);
}

export type { Provider };
