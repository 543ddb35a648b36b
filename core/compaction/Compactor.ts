import type { EventBus } from '../bus/EventBus.js';
import type { PodController, Reply } from '../controller/PodController.js';
import { AbortedError } from '../provider/providerErrors.js';
import type { Hooks } from '../hooks/createHooks.js';
import type { CompactOutcome, CompactReason, PodInfo } from '../hooks/HookTypes.js';
import type { Provider } from '../provider/Provider.js';
import type { AlertLevel, PodStatus } from '../protocol/index.js';
import type { SessionEntryOf } from '../session/SessionEntry.js';
import type { SessionLog } from '../session/SessionLog.js';
import { ContextTracker } from '../tokens/ContextTracker.js';
import { loadTokenizer } from '../tokens/estimateTokens.js';
import type { CompactionSettings } from './compactionNotes.js';
import { runCompaction } from './runCompaction.js';

/** Consecutive failures after which automatic compaction stops until a manual one succeeds. */
export const MAX_CONSECUTIVE_FAILURES = 3;

export interface CompactorOptions {
  hooks: Hooks;
  bus: EventBus;
  provider: Provider;
  info: PodInfo;
  settings: CompactionSettings;
  sessionsDir: string;
  controller: () => PodController;
  session: { get(): SessionLog; set(log: SessionLog): void };
  /** The fields of a new session's `session_start` that compaction does not change. */
  startFields: () => Pick<SessionEntryOf<'session_start'>, 'pod_name' | 'cwd' | 'provider' | 'model' | 'system_prompt'>;
  /** An alert with source `compactor`. */
  alert: (level: AlertLevel, message: string) => void;
}

interface Job {
  readonly abort: AbortController;
  /** Why it was aborted (said in `compact_failed`). */
  why?: string;
}

const LABEL: Record<CompactReason, string> = { request: 'mid-run compaction', threshold: 'post-run compaction', manual: 'compaction' };

/**
 * The compaction lifecycle (ARCHITECTURE §6): when to compact, and the events around it. The
 * strategy (what the new history is) belongs to the `beforeCompact`/`compact` taps.
 *
 * Triggers: `compaction.requestThreshold` before each LLM request of a run (mid-turn; the
 * turn then continues in the new session), `compaction.threshold` when a run ended and the pod
 * is idle (post-run), and the manual `compact` method. Never two automatic compactions without
 * an LLM request between them, so a compaction that cannot shrink the context does not loop;
 * one that leaves the context above its threshold counts as a failure, and after
 * MAX_CONSECUTIVE_FAILURES automatic compaction is off until a manual compaction succeeds.
 */
export class Compactor {
  readonly tracker = new ContextTracker();
  private failures = 0;
  private autoDisabled = false;
  /** A manual compaction asked for during a run: done before its next request, or at its end. */
  private pendingManual = false;
  private compactedSinceRequest = false;
  private job?: Job;
  /** The post-run threshold check counting the context (stopped with the pod). */
  private idleCheck?: AbortController;

  constructor(private readonly opts: CompactorOptions) {}

  /** True while a compaction runs. */
  get running(): boolean {
    return this.job !== undefined;
  }

  /** True once automatic compaction was switched off by repeated failures. */
  get disabled(): boolean {
    return this.autoDisabled;
  }

  /** Estimated tokens of the next LLM request (synchronous, so long items are estimated roughly). */
  contextTokens(): number {
    const c = this.opts.controller();
    return this.tracker.current(c.history, c.systemPrompt);
  }

  /** Tokens of the next LLM request, counted without blocking the event loop. */
  private countContext(signal?: AbortSignal): Promise<number> {
    const c = this.opts.controller();
    return this.tracker.measure(c.history, c.systemPrompt, signal);
  }

  /** The controller's `onUsage`: a request completed. */
  onUsage(usage: { input_tokens?: number }, historyLength: number): void {
    this.tracker.record(usage.input_tokens, historyLength);
    this.compactedSinceRequest = false;
  }

  /** The controller's `beforeRequest`: compacts mid-turn when due; throws if the run was stopped meanwhile. */
  async beforeRequest(signal: AbortSignal): Promise<void> {
    if (this.pendingManual || this.opts.settings.requestThreshold !== undefined) await loadTokenizer();
    const reason = this.pendingManual ? 'manual' : (await this.due(this.opts.settings.requestThreshold, signal)) ? 'request' : undefined;
    if (!reason) return;
    this.pendingManual = false;
    await this.compact(reason, 'running', signal);
    if (signal.aborted) throw new AbortedError('aborted');
  }

  /** The controller's `afterIdle`: compacts post-run when due. */
  async afterIdle(): Promise<void> {
    if (this.opts.settings.threshold === undefined) return;
    await loadTokenizer();
    const check = (this.idleCheck = new AbortController());
    try {
      if (this.job || !(await this.due(this.opts.settings.threshold, check.signal))) return;
    } catch (e) {
      if (check.signal.aborted) return; // the pod is stopping
      throw e;
    } finally {
      if (this.idleCheck === check) this.idleCheck = undefined;
    }
    await this.compact('threshold', 'idle');
  }

  /**
   * The `compact` method. Idle or paused: starts now (the state is reserved before this
   * returns, `compact_start` follows the reply). During a run: accepted, and done before the
   * run's next LLM request or right after the run ends.
   */
  requestManual(): Reply {
    const c = this.opts.controller();
    if (this.job || c.status === 'compacting') return { ok: false, code: 'already_running', message: 'Pod is already compacting its history' };
    if (c.busy) {
      this.pendingManual = true;
      return { ok: true };
    }
    if (c.history.length === 0) return { ok: false, code: 'invalid_request', message: 'nothing to compact: the history is empty' };
    const back = c.status;
    c.runWhileIdle(() => this.compact('manual', back));
    return { ok: true };
  }

  /** Pod status changes: a manual compaction left pending by a run that ended is done now. */
  statusChanged(status: PodStatus): void {
    if (!this.pendingManual || this.job || (status !== 'idle' && status !== 'paused')) return;
    queueMicrotask(() => {
      const c = this.opts.controller();
      if (!this.pendingManual || this.job || c.busy || (c.status !== 'idle' && c.status !== 'paused')) return;
      this.pendingManual = false;
      const back = c.status;
      c.runWhileIdle(() => this.compact('manual', back));
    });
  }

  /** The controller's `interruptIdleWork`: pause/cancel while compacting with no run. */
  interrupt(kind: 'pause' | 'cancel'): boolean {
    return this.abort(kind === 'pause' ? 'paused by the user' : 'cancelled by the user');
  }

  /** Aborts the running compaction (pause, cancel, shutdown); false if none runs. */
  abort(why: string): boolean {
    this.idleCheck?.abort();
    if (!this.job) return false;
    this.job.why ??= why;
    this.job.abort.abort();
    return true;
  }

  private async due(threshold: number | undefined, signal: AbortSignal): Promise<boolean> {
    if (threshold === undefined || this.autoDisabled || this.compactedSinceRequest) return false;
    return (await this.countContext(signal)) > threshold;
  }

  /**
   * One compaction, start to terminal event: exactly one `compact_done` or `compact_failed`
   * follows each `compact_start`. `back` is the status to return to; `runSignal` is the run's
   * (mid-turn): stopping the run aborts the compaction, and the run then reports its own end.
   */
  private async compact(reason: CompactReason, back: PodStatus, runSignal?: AbortSignal): Promise<void> {
    const { bus, hooks, info } = this.opts;
    const c = this.opts.controller();
    const job: Job = { abort: new AbortController() };
    this.job = job;
    const onRunStop = () => this.abort('the run was paused or cancelled');
    runSignal?.addEventListener('abort', onRunStop, { once: true });
    if (runSignal?.aborted) onRunStop();
    c.setStatus('compacting');
    const oldSessionId = this.opts.session.get().sessionId;
    let outcome: CompactOutcome;
    try {
      await Promise.resolve(); // the `compact` request's ack (sent synchronously) goes out first
      bus.broadcast({ event: 'compact_start' });
      await loadTokenizer();
      const tokensBefore = await this.countContext(job.abort.signal);
      const done = await runCompaction({ ...this.opts, reason, signal: job.abort.signal, tokens: this.tracker });
      // The session has switched: counted to the end, an abort no longer undoes anything.
      const tokensAfter = await this.countContext();
      bus.broadcast({ event: 'compact_done', data: { new_session_id: done.newSessionId } });
      outcome = { ok: true, reason, oldSessionId, newSessionId: done.newSessionId, tokensBefore, tokensAfter };
    } catch (e) {
      const aborted = job.abort.signal.aborted;
      const error = aborted ? `aborted: ${job.why ?? 'stopped'}` : oneLine(e);
      outcome = { ok: false, reason, oldSessionId, error, aborted };
      bus.broadcast({ event: 'compact_failed', data: { error } });
    } finally {
      runSignal?.removeEventListener('abort', onRunStop);
      this.job = undefined;
    }
    // An aborted attempt proved nothing: a resumed run may try again at once.
    if (outcome.ok || !outcome.aborted) this.compactedSinceRequest = true;
    this.account(outcome);
    // A stopped run reports its own status (paused/idle) with its terminal event.
    if (!runSignal?.aborted) c.setStatus(back);
    await hooks.afterCompact.promise(outcome, info).catch(() => undefined);
  }

  /** Failure counting, the breaker and its alerts. */
  private account(outcome: CompactOutcome): void {
    const { settings } = this.opts;
    if (!outcome.ok) {
      if (!outcome.aborted) this.failed(outcome.reason, `${LABEL[outcome.reason]} failed: ${outcome.error}`);
      return;
    }
    const threshold = outcome.reason === 'request' ? settings.requestThreshold : outcome.reason === 'threshold' ? settings.threshold : undefined;
    if (threshold !== undefined && outcome.tokensAfter > threshold) {
      const key = outcome.reason === 'request' ? 'compaction.requestThreshold' : 'compaction.threshold';
      this.failed(outcome.reason, `${LABEL[outcome.reason]} left about ${outcome.tokensAfter} tokens, still above ${key} (${threshold}): lower compaction.retainedTokens or raise the threshold`);
      return;
    }
    if (outcome.reason === 'manual' && this.autoDisabled) this.opts.alert('warn', 'compaction succeeded: automatic compaction is enabled again');
    this.failures = 0;
    if (outcome.reason === 'manual') this.autoDisabled = false;
  }

  private failed(reason: CompactReason, message: string): void {
    this.failures++;
    let text = message;
    if (this.failures >= MAX_CONSECUTIVE_FAILURES && !this.autoDisabled) {
      this.autoDisabled = true;
      text += `; automatic compaction is disabled after ${MAX_CONSECUTIVE_FAILURES} consecutive failures until a manual compaction (yoi compact) succeeds`;
    }
    this.opts.alert(reason === 'request' ? 'error' : 'warn', text);
  }
}

function oneLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/\s*\n\s*/g, ' ').slice(0, 1000);
}
