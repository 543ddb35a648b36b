import type { Reply } from '../controller/PodController.js';
import type { CompactOutcome, CompactReason } from '../hooks/HookTypes.js';
import type { PodRuntime } from '../pod/PodRuntime.js';
import type { PodStatus } from '../protocol/index.js';
import { AbortedError } from '../provider/providerErrors.js';
import { ContextTracker } from '../tokens/ContextTracker.js';
import { loadTokenizer } from '../tokens/estimateTokens.js';
import { runCompaction } from './runCompaction.js';

/** Consecutive failures after which automatic compaction stops until a manual one succeeds. */
export const MAX_CONSECUTIVE_FAILURES = 3;

interface Job {
  readonly abort: AbortController;
  /** Why it was aborted (said in `compact_failed`). */
  why?: string;
}

const LABEL: Record<CompactReason, string> = {
  request: 'mid-run compaction',
  threshold: 'post-run compaction',
  manual: 'compaction',
};

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

  constructor(private readonly rt: PodRuntime) {
    rt.state.onChange((status) => this.statusChanged(status));
  }

  private get settings() {
    return this.rt.config.compaction;
  }

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
    return this.tracker.current(this.rt.history, this.rt.systemPrompt);
  }

  /** Tokens of the next LLM request, counted without blocking the event loop. */
  private countContext(signal?: AbortSignal): Promise<number> {
    return this.tracker.measure(this.rt.history, this.rt.systemPrompt, signal);
  }

  /** After each LLM request: the usage the provider reported and the history length it saw. */
  onUsage(usage: { input_tokens?: number }, historyLength: number): void {
    this.tracker.record(usage.input_tokens, historyLength);
    this.compactedSinceRequest = false;
  }

  /** Before each LLM request of a run: compacts mid-turn when due; throws if the run was stopped meanwhile. */
  async beforeRequest(signal: AbortSignal): Promise<void> {
    if (this.pendingManual || this.settings.requestThreshold !== undefined) await loadTokenizer();
    const reason = this.pendingManual
      ? 'manual'
      : (await this.due(this.settings.requestThreshold, signal))
        ? 'request'
        : undefined;
    if (!reason) return;
    this.pendingManual = false;
    await this.compact(reason, signal);
    if (signal.aborted) throw new AbortedError('aborted');
  }

  /** When a run ended and the pod is idle: compacts post-run when due. */
  async afterIdle(): Promise<void> {
    if (this.settings.threshold === undefined) return;
    await loadTokenizer();
    const check = (this.idleCheck = new AbortController());
    try {
      if (this.job || !(await this.due(this.settings.threshold, check.signal))) return;
    } catch (e) {
      if (check.signal.aborted) return; // the pod is stopping
      throw e;
    } finally {
      if (this.idleCheck === check) this.idleCheck = undefined;
    }
    await this.compact('threshold');
  }

  /**
   * The `compact` method. Idle or paused: starts now (the state is reserved before this
   * returns, `compact_start` follows the reply). During a run: accepted, and done before the
   * run's next LLM request or right after the run ends.
   */
  requestManual(): Reply {
    const { state, history } = this.rt;
    if (this.job || state.status === 'compacting')
      return { ok: false, code: 'already_running', message: 'Pod is already compacting its history' };
    if (state.runActive) {
      this.pendingManual = true;
      return { ok: true };
    }
    if (history.length === 0)
      return { ok: false, code: 'invalid_request', message: 'nothing to compact: the history is empty' };
    this.rt.work.track(this.compact('manual'));
    return { ok: true };
  }

  /** Pause/cancel while compacting with no run; true if a compaction was stopped. */
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

  /** A manual compaction left pending by a run that ended is done now. */
  private statusChanged(status: PodStatus): void {
    if (!this.pendingManual || this.job || (status !== 'idle' && status !== 'paused')) return;
    queueMicrotask(() => {
      const { state } = this.rt;
      if (!this.pendingManual || this.job || state.runActive || (state.status !== 'idle' && state.status !== 'paused'))
        return;
      this.pendingManual = false;
      this.rt.work.track(this.compact('manual'));
    });
  }

  private async due(threshold: number | undefined, signal: AbortSignal): Promise<boolean> {
    if (threshold === undefined || this.autoDisabled || this.compactedSinceRequest) return false;
    return (await this.countContext(signal)) > threshold;
  }

  /**
   * One compaction, start to terminal event: exactly one `compact_done` or `compact_failed`
   * follows each `compact_start`. `runSignal` is the run's (mid-turn): stopping the run aborts
   * the compaction, and the run then reports its own end (and status).
   */
  private async compact(reason: CompactReason, runSignal?: AbortSignal): Promise<void> {
    const { bus, hooks, info, state } = this.rt;
    const job: Job = { abort: new AbortController() };
    this.job = job;
    const onRunStop = () => this.abort('the run was paused or cancelled');
    runSignal?.addEventListener('abort', onRunStop, { once: true });
    if (runSignal?.aborted) onRunStop();
    state.apply('compact');
    const oldSessionId = this.rt.session.sessionId;
    let outcome: CompactOutcome;
    try {
      await Promise.resolve(); // the `compact` request's ack (sent synchronously) goes out first
      bus.broadcast({ event: 'compact_start' });
      await loadTokenizer();
      const tokensBefore = await this.countContext(job.abort.signal);
      const done = await runCompaction(this.rt, { reason, signal: job.abort.signal, tokens: this.tracker });
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
    if (!runSignal?.aborted) state.apply('compacted');
    await hooks.afterCompact.promise(outcome, info).catch(() => undefined);
  }

  /** Failure counting, the breaker and its alerts. */
  private account(outcome: CompactOutcome): void {
    if (!outcome.ok) {
      if (!outcome.aborted) this.failed(outcome.reason, `${LABEL[outcome.reason]} failed: ${outcome.error}`);
      return;
    }
    const { settings } = this;
    const threshold =
      outcome.reason === 'request'
        ? settings.requestThreshold
        : outcome.reason === 'threshold'
          ? settings.threshold
          : undefined;
    if (threshold !== undefined && outcome.tokensAfter > threshold) {
      const key = outcome.reason === 'request' ? 'compaction.requestThreshold' : 'compaction.threshold';
      this.failed(
        outcome.reason,
        `${LABEL[outcome.reason]} left about ${outcome.tokensAfter} tokens, still above ${key} (${threshold}): lower compaction.retainedTokens or raise the threshold`,
      );
      return;
    }
    if (outcome.reason === 'manual' && this.autoDisabled)
      this.rt.alert('warn', 'compaction succeeded: automatic compaction is enabled again', 'compactor');
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
    this.rt.alert(reason === 'request' ? 'error' : 'warn', text, 'compactor');
  }
}

function oneLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.replace(/\s*\n\s*/g, ' ').slice(0, 1000);
}
