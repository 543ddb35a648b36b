import { setMaxListeners } from 'node:events';
import type { Compactor } from '../compaction/Compactor.js';
import type { ClientInfo, RunEndInfo } from '../hooks/HookTypes.js';
import { messageItem, type HistoryItem } from '../history/HistoryItem.js';
import type { PodRuntime } from '../pod/PodRuntime.js';
import { resolveSegments } from '../pipeline/resolveSegments.js';
import { type ErrorCode, type Method, type RunResult, type Segment } from '../protocol/index.js';
import { AbortedError, ProviderError } from '../provider/providerErrors.js';
import type { Tool } from '../tools/Tool.js';
import { notificationPreview } from './notificationPreview.js';
import { notificationText } from './notificationText.js';
import {
  CANCELLED_BY_USER,
  INTERRUPTED_BY_USER,
  INTERRUPT_NOTE,
  closeOrphans,
  orphanToolCalls,
} from './orphanToolCalls.js';
import { RunStopped, type RunStop } from './RunStopped.js';
import { handlePodEvent } from './handlePodEvent.js';
import { runToolCalls } from './runToolCalls.js';
import { ToolSet } from './ToolSet.js';
import { runTurns } from './runTurns.js';
import { collectYoungGarbage } from './collectYoungGarbage.js';

/** What the controller answers to a method: accepted, or rejected with a code. */
export type Reply = { ok: true } | { ok: false; code: ErrorCode; message: string };

/** Notifications waiting for the model's next request, past which `notify` is refused. */
export const MAX_QUEUED_NOTES = 1000;

type Trigger = RunEndInfo['trigger'];
type Outcome = { result: RunResult } | { result: 'error'; code: ErrorCode; message: string };

/** One run in flight. */
export interface ActiveRun {
  readonly trigger: Trigger;
  readonly client?: ClientInfo;
  readonly abort: AbortController;
  stop?: 'pause' | 'cancel';
  instructions: string[];
}

/**
 * Runs and the methods that drive them (ARCHITECTURE §4.2), over the pod's one state machine:
 * every run ends with exactly one terminal event (`run_end`, or `error` for a failed run);
 * orphan tool calls are closed and persisted on every path; notifications are committed to
 * history and the log, and start a run when the pod is idle; `maxTurns` counts tool rounds per run.
 */
export class PodController {
  private active?: ActiveRun;
  private readonly notes: string[] = [];
  private stopping = false;
  readonly tools: ToolSet;

  constructor(
    private readonly rt: PodRuntime,
    private readonly compactor: Compactor,
    tools: ReadonlyMap<string, Tool>,
    private nextTurn: number,
  ) {
    this.tools = new ToolSet(rt.hooks, tools, rt.info);
    // Reports a resumed session applied whose notes its model had not read: they come first.
    this.notes.push(...rt.reports.pendingNotes.map((p) => p.note));
    // A compaction done while idle may have held back notifications: they run now.
    rt.state.onChange((status, from) => {
      if (from === 'compacting' && status === 'idle') this.startQueuedNotes();
    });
  }

  get history(): HistoryItem[] {
    return this.rt.history;
  }

  handle(method: Method, client?: ClientInfo): Reply | Promise<Reply> {
    if (this.stopping) return reject('internal', 'Pod is shutting down');
    const { state } = this.rt;
    switch (method.method) {
      case 'run':
      case 'resume':
        if (this.active) return reject('already_running', 'Pod is already executing a turn');
        if (state.status === 'compacting') return reject('already_running', 'Pod is compacting its history');
        if (method.method === 'resume' && state.status !== 'paused') return reject('not_paused', 'Pod is not paused');
        this.start(method.method, method.method === 'run' ? method.params.input : undefined, client);
        return { ok: true };
      case 'cancel':
        if (this.active) return this.stopRun('cancel');
        if (state.status === 'paused') {
          // Abandon the paused run: its open tool calls are closed, never re-executed.
          this.commit(closeOrphans(this.history, CANCELLED_BY_USER), 'interrupt');
          this.rt.session.sync();
          state.apply('abandon');
          return { ok: true };
        }
        if (state.status === 'compacting' && this.compactor.interrupt('cancel')) return { ok: true };
        return reject('not_running', 'Pod is not running');
      case 'pause':
        if (this.active) return this.stopRun('pause');
        if (state.status === 'paused') return { ok: true };
        if (state.status === 'compacting' && this.compactor.interrupt('pause')) return { ok: true };
        return reject('not_running', 'Pod is not running');
      case 'notify':
        // A paused or long run reads no notes: a client's flood of them is refused, not held.
        if (this.notes.length >= MAX_QUEUED_NOTES)
          return reject(
            'invalid_request',
            `${MAX_QUEUED_NOTES} notifications are already waiting for the model; this one was not queued`,
          );
        this.notify(method.params.message, 'notify');
        return { ok: true };
      case 'pod_event':
        return handlePodEvent(this.rt, method.params, method.request_id, client, (text) =>
          this.notify(text, 'pod_event'),
        );
      default:
        return reject('invalid_request', `method \`${method.method}\` is not handled by the controller`);
    }
  }

  /** Queues a notification (committed before the next LLM request); starts a run when idle. */
  notify(text: string, trigger: 'notify' | 'pod_event'): void {
    this.notes.push(text);
    // v2 clients see it as it arrives (the model, before its next request).
    this.rt.bus.broadcast({ event: 'notification', data: { source: trigger, message: notificationPreview(text) } });
    if (!this.active && this.rt.state.status === 'idle' && !this.stopping) this.start(trigger);
  }

  /** Stops accepting methods, cancels the active run (it still ends with its terminal event). */
  async shutdown(): Promise<void> {
    this.stopping = true;
    if (this.active) this.stopRun('cancel', 'shutdown');
    await this.rt.work.settled();
  }

  private stopRun(kind: 'pause' | 'cancel', why: RunStop = kind): Reply {
    const run = this.active!;
    if (kind === 'cancel') run.stop = 'cancel';
    else run.stop ??= 'pause';
    run.abort.abort(new RunStopped(why));
    return { ok: true };
  }

  private start(trigger: Trigger, input?: Segment[], client?: ClientInfo): void {
    const run: ActiveRun = { trigger, client, abort: new AbortController(), instructions: [] };
    // Each tool call of a reply listens on the run's signal until it ends: more than Node's
    // default of 10 at once is a reply with many calls, not a leak.
    setMaxListeners(0, run.abort.signal);
    const wasPaused = this.rt.state.status === 'paused';
    this.active = run;
    this.rt.state.apply('start');
    // The run's events start on the next microtask, so the requester's `ack` comes first.
    const done = Promise.resolve()
      .then(() => this.execute(run, input, wasPaused))
      .finally(() => {
        if (this.active === run) this.active = undefined;
      });
    this.rt.work.track(done);
  }

  private async execute(run: ActiveRun, input: Segment[] | undefined, wasPaused: boolean): Promise<void> {
    let outcome: Outcome;
    if (input) this.rt.bus.broadcast({ event: 'user_message', data: { segments: input } });
    try {
      if (wasPaused && run.trigger !== 'resume') {
        this.commit(
          [...closeOrphans(this.history, INTERRUPTED_BY_USER), messageItem('system', INTERRUPT_NOTE)],
          'interrupt',
        );
      }
      if (input) await this.commitUserInput(input, run);
      if (run.trigger === 'resume') await this.runPendingCalls(run);
      const turns = await runTurns(this.rt, run, {
        compactor: this.compactor,
        tools: this.tools,
        nextTurn: () => this.nextTurn++,
        drainNotes: () => this.drainNotes(),
        commit: (items, source) => this.commit(items, source),
      });
      outcome = { result: turns };
    } catch (e) {
      if (run.abort.signal.aborted) outcome = { result: run.stop === 'pause' ? 'paused' : 'cancelled' };
      else
        outcome = {
          result: 'error',
          code: e instanceof ProviderError ? 'provider_error' : 'internal',
          message: oneLine(e),
        };
    }
    await this.finish(run, outcome);
  }

  private async commitUserInput(segments: Segment[], run: ActiveRun): Promise<void> {
    const { hooks, info, segmentKinds } = this.rt;
    const signal = run.abort.signal;
    const resolved = await resolveSegments(
      hooks,
      segmentKinds,
      segments,
      (index) => ({
        ...info,
        index,
        signal,
        input: segments,
        ...(run.client ? { client: run.client } : {}),
      }),
      this.rt.config.limits.runInputBytes,
    );
    for (const message of resolved.alerts) this.rt.alert('warn', message);
    const items: HistoryItem[] = [{ ...messageItem('user', resolved.userText), segments }, ...resolved.contextItems];
    run.instructions = resolved.instructions;
    // Inlined segment contents are logged once, in `segments`; the message text refers to them.
    const byReference = resolved.userParts.some((p) => typeof p === 'number');
    this.rt.session.append({
      type: 'user_input',
      ts: Date.now(),
      segments, // written in wire form: unknown kinds keep their raw payload
      // The segments are on the entry itself; the message item is stored without them.
      items: [messageItem('user', byReference ? '' : resolved.userText), ...resolved.contextItems],
      ...(byReference ? { user_text: resolved.userParts } : {}),
      ...(resolved.instructions.length ? { instructions: resolved.instructions } : {}),
    });
    // After the log took it: an entry the log cannot take leaves the history as the log has it.
    this.history.push(...items);
    if (signal.aborted) throw new AbortedError('aborted');
  }

  private async runPendingCalls(run: ActiveRun): Promise<void> {
    const pending = orphanToolCalls(this.history).map((c) => ({ id: c.call_id, name: c.name, arguments: c.arguments }));
    if (pending.length === 0) return;
    const results = await runToolCalls(pending, this.tools.runOptions(this.rt, run));
    this.commit(
      results.filter((r) => r !== undefined),
      'tool',
    );
    if (run.abort.signal.aborted) throw new AbortedError('aborted');
  }

  private async finish(run: ActiveRun, outcome: Outcome): Promise<void> {
    const { bus, hooks, info, session, state } = this.rt;
    if (outcome.result === 'cancelled') this.commit(closeOrphans(this.history, CANCELLED_BY_USER), 'interrupt');
    if (outcome.result === 'error')
      this.commit(closeOrphans(this.history, `[Interrupted: ${outcome.message}]`), 'interrupt');
    session.append({
      type: 'run_end',
      ts: Date.now(),
      result: outcome.result,
      ...('message' in outcome ? { error: outcome.message } : {}),
    });
    session.sync();
    try {
      if (outcome.result === 'error')
        bus.broadcast({ event: 'error', data: { code: outcome.code, message: outcome.message } });
      else bus.broadcast({ event: 'run_end', data: { result: outcome.result } });
      collectYoungGarbage(() => bus.sendNow());
    } finally {
      // Whatever the broadcast met, the run is over: a pod left `running` refused every later run.
      this.active = undefined;
      state.apply(outcome.result === 'paused' ? 'pause' : 'stop');
    }
    await hooks.runEnd.promise({
      ...info,
      result: outcome.result,
      trigger: run.trigger,
      ...(run.client !== undefined ? { client: run.client } : {}),
      ...('message' in outcome ? { error: outcome.message } : {}),
    });
    if (this.stopping || state.status !== 'idle') return;
    await this.compactor.afterIdle();
    this.startQueuedNotes();
  }

  /** Starts a run for queued notifications when the pod is idle (also after a resumed start). */
  startQueuedNotes(): void {
    if (this.notes.length > 0 && !this.active && this.rt.state.status === 'idle' && !this.stopping)
      this.start('notify');
  }

  private drainNotes(): void {
    if (this.notes.length === 0) return;
    const items = this.notes.splice(0).map((n) => messageItem('system', notificationText(n)));
    this.commit(items, 'notification');
    this.rt.reports.drained();
  }

  private commit(items: HistoryItem[], source: 'assistant' | 'tool' | 'notification' | 'interrupt'): void {
    if (items.length === 0) return;
    this.history.push(...items);
    this.rt.session.append({ type: 'items', ts: Date.now(), source, items });
  }
}

function reject(code: ErrorCode, message: string): Reply {
  return { ok: false, code, message };
}

function oneLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/\s*\n\s*/g, ' ').slice(0, 1000);
}
