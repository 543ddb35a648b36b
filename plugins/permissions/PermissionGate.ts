import {
  MethodError,
  canonicalPath,
  runStopOf,
  type ClientInfo,
  type EventChannel,
  type PodInfo,
  type ToolCallDecision,
  type ToolCallInfo,
} from '../../core/api.js';
import {
  AskBook,
  requestOf,
  MAX_PENDING,
  type AskLogEntry,
  type AskRecord,
  type Outcome,
  type PendingAsk,
} from './AskBook.js';
import { AskRelay } from './AskRelay.js';
import { callSubject, type CallSubject } from './callSubject.js';
import { callKey, clipArgs, formatDuration, summarizeCall } from './describeCall.js';
import { evaluatePolicy, subjectText } from './evaluatePolicy.js';
import { DECISIONS, type Decision, type Policy } from './permissionsConfig.js';
import type { PermissionReply, PermissionRequest, PermissionResolved } from './permissionWire.js';
import { SavedRules, asRule, permissionsFile } from './SavedRules.js';

export interface GateParts {
  readonly plugin: string;
  readonly policy: Policy;
  readonly pod: PodInfo;
  readonly requests: EventChannel<PermissionRequest>;
  readonly resolutions: EventChannel<PermissionResolved>;
  readonly relay: AskRelay;
  /** Whether the pod's Bash runs sandboxed (undefined: no Bash). */
  readonly bashSandboxed: () => boolean | undefined;
}

/** Decisions given to asks restored after a restart, kept for the same call made again. */
const MAX_GRANTS = 100;

/**
 * The permission policy of one pod, on `beforeToolCall`: allow, deny (the model gets the
 * reason), or ask — an ask goes to every client (and up the pod tree), waits for the first
 * valid `permission_reply`, its deadline, or the run's cancel/pause, and is kept in the session
 * log until resolved. A relayed ask (a child's) is answered by relaying the reply to the child.
 */
export class PermissionGate {
  readonly book: AskBook;
  readonly saved: SavedRules;
  readonly #projectDir: string;
  readonly #grants = new Map<string, Outcome>();
  #problemSaid?: string;

  constructor(private readonly p: GateParts) {
    this.book = new AskBook(
      (ask) => void this.finish(ask, { decision: ask.record.request.default, by: 'timeout', ended: 'timeout' }),
    );
    this.#projectDir = canonicalPath(p.pod.projectDir) ?? p.pod.projectDir;
    this.saved = new SavedRules(permissionsFile(this.#projectDir));
  }

  /** The `beforeToolCall` tap. */
  async check(call: ToolCallInfo): Promise<ToolCallDecision | undefined> {
    const subject = callSubject(call.name, call.arguments, { cwd: call.cwd, projectDir: this.#projectDir });
    // The saved rules and the config are the pod's control plane: the scope refuses every tool's writes there.
    const sandboxed = this.p.bashSandboxed();
    const verdict = evaluatePolicy(
      this.p.policy,
      this.#savedRules(),
      { tool: call.name, subject },
      { unsandboxedBash: sandboxed === false },
    );
    if (verdict.action === 'allow') return undefined;
    if (verdict.action === 'deny') return { action: 'refuse', reason: `denied by ${verdict.why}` };
    const key = callKey(call.name, call.arguments);
    const grant = this.#grants.get(key);
    if (grant) {
      this.#grants.delete(key);
      return this.#decide(grant, call.name);
    }
    if (call.signal.aborted) return { action: 'refuse', reason: 'the run was stopped before permission was asked' };
    if (this.book.size >= MAX_PENDING)
      return {
        action: 'refuse',
        reason: `too many permission requests are pending (${MAX_PENDING}); answer them first`,
      };
    const outcome = await this.#ask(call, subject, key, { unsandboxed: call.name === 'Bash' && sandboxed === false });
    return this.#decide(outcome, call.name);
  }

  /** A `permission_reply` from a client: the first valid one resolves the ask. */
  async reply(params: PermissionReply, client: ClientInfo): Promise<void> {
    const ask = this.book.get(params.id);
    if (!ask) {
      const done = this.book.resolved(params.id);
      if (done)
        throw new MethodError(
          'invalid_request',
          `permission request ${params.id} was already resolved (${done.decision} by ${done.by})`,
        );
      throw new MethodError('invalid_request', `no pending permission request ${params.id}`);
    }
    const { request } = ask.record;
    if (!request.options.includes(params.decision)) {
      throw new MethodError(
        'invalid_request',
        `${params.decision} is not an option of permission request ${params.id} (options: ${request.options.join(', ')})`,
      );
    }
    if (ask.relaying)
      throw new MethodError('invalid_request', `permission request ${params.id} is being answered already`);
    const name = client.name ?? `client#${client.id}`;
    // A parent relays its own client's name; anyone else answers as itself.
    const by = params.by !== undefined && name.startsWith('pod/') ? params.by : name;
    const outcome: Outcome = {
      decision: params.decision,
      by,
      ...(params.message !== undefined ? { message: params.message } : {}),
    };
    if (ask.record.via !== undefined) {
      ask.relaying = true;
      try {
        await this.p.relay.reply(ask.record.via, {
          id: params.id,
          decision: params.decision,
          by,
          ...(params.message !== undefined ? { message: params.message } : {}),
        });
      } finally {
        ask.relaying = false;
      }
    } else if (params.decision === 'allow_always' || params.decision === 'reject_always') {
      await this.#save(ask.record, params.decision, by);
    }
    this.finish(ask, outcome);
  }

  /** Ends an ask: logged, told to every client and the parent, handed to the waiting call. */
  finish(ask: PendingAsk, outcome: Outcome): boolean {
    const { request } = ask.record;
    const resolution: PermissionResolved = {
      id: request.id,
      decision: outcome.decision,
      by: outcome.by,
      pod: request.pod,
      ...(outcome.message !== undefined ? { message: outcome.message } : {}),
    };
    if (!this.book.take(request.id, resolution)) return false;
    this.#log({ type: 'resolved', id: request.id, decision: outcome.decision, by: outcome.by });
    this.p.resolutions.emit(resolution);
    this.p.relay.reportResolved(resolution);
    if (ask.record.via === undefined) {
      if (ask.waiter) ask.waiter(outcome);
      // Restored after a restart (its call is gone): a person's answer holds for the same call made again.
      else if (ask.record.call_key !== undefined && outcome.ended === undefined && outcome.decision.endsWith('_once'))
        this.#grant(ask.record.call_key, outcome);
    }
    return true;
  }

  /** A child's ask (or a deeper descendant's, relayed by the child): shown here, answered through the child. */
  relayed(request: PermissionRequest, child: string): void {
    if (this.book.knows(request.id)) return; // a report delivered twice
    if (this.book.size >= MAX_PENDING) {
      this.p.pod.services.alert(
        'warn',
        `${this.p.plugin}: permission request ${request.id} of pod ${request.pod} is not shown here: ${MAX_PENDING} are pending`,
      );
      return;
    }
    const { deadline_ms: _left, ...rest } = request;
    const record: AskRecord = { request: rest, via: child };
    this.#log({ type: 'ask', ask: record });
    this.#open(record);
    this.p.requests.emit(requestOf(record));
    this.p.relay.reportRequest(requestOf(record));
  }

  /** A child says how one of its asks ended (at its deadline, or answered elsewhere). */
  relayedResolved(resolution: PermissionResolved, child: string): void {
    const ask = this.book.get(resolution.id);
    if (ask?.record.via !== child) return;
    this.finish(ask, {
      decision: resolution.decision,
      by: resolution.by,
      ...(resolution.message !== undefined ? { message: resolution.message } : {}),
    });
  }

  /** After `--resume`: the asks the log holds unresolved are pending again (their deadlines as they were). */
  restore(entries: readonly AskLogEntry[]): void {
    const open = new Map<string, AskRecord>();
    for (const e of entries) {
      if (e.type === 'ask') open.set(e.ask.request.id, e.ask);
      else open.delete(e.id);
    }
    for (const record of open.values()) if (!this.book.knows(record.request.id)) this.#open(record);
  }

  /** A compaction started a new session log: the pending asks go into it, so `--resume` finds them. */
  carryOver(): void {
    for (const ask of this.book.all()) this.#log({ type: 'ask', ask: ask.record });
  }

  stop(): void {
    this.book.close();
  }

  async #ask(
    call: ToolCallInfo,
    subject: CallSubject | undefined,
    key: string,
    opts: { unsandboxed: boolean },
  ): Promise<Outcome> {
    const { policy, pod } = this.p;
    const now = Date.now();
    const clipped = clipArgs(call.arguments);
    const record: AskRecord = {
      request: {
        id: this.book.newId(),
        tool: call.name,
        args: clipped.args,
        summary: summarizeCall(call.name, call.arguments, subject),
        // Without a sandbox every Bash command asks: saving an allow would not hold anyway.
        options: opts.unsandboxed ? DECISIONS.filter((d) => d !== 'allow_always') : [...DECISIONS],
        default: policy.onDeadline,
        pod: pod.podName,
        expires_at: now + policy.deadlineMs,
        ...(clipped.clipped ? { args_clipped: true } : {}),
      },
      call_key: key,
      save: { tool: call.name, ...(subject ? { exact: subjectText(subject) } : {}) },
    };
    this.#log({ type: 'ask', ask: record });
    let onAbort = () => undefined as void;
    const settled = new Promise<Outcome | 'stopped'>((resolve) => {
      const ask = this.#open(record, resolve, now);
      onAbort = () => {
        const stop = runStopOf(call.signal) ?? 'cancel';
        if (stop !== 'shutdown') return void this.finish(ask, { decision: 'reject_once', by: stop, ended: stop });
        // The ask outlives the pod: it stays open in the log for `--resume`.
        this.book.detach(record.request.id);
        clearTimeout(ask.timer);
        resolve('stopped');
      };
    });
    call.signal.addEventListener('abort', onAbort, { once: true });
    this.p.requests.emit(requestOf(record, now));
    this.p.relay.reportRequest(requestOf(record, now));
    try {
      const outcome = await settled;
      return outcome === 'stopped' ? { decision: 'reject_once', by: 'shutdown', ended: 'shutdown' } : outcome;
    } finally {
      call.signal.removeEventListener('abort', onAbort);
    }
  }

  #open(record: AskRecord, waiter?: (o: Outcome) => void, now?: number): PendingAsk {
    return this.book.add(record, {
      ...(waiter ? { waiter } : {}),
      ...(record.via !== undefined ? { graceMs: 30_000 } : {}),
      ...(now ? { now } : {}),
    });
  }

  #decide(outcome: Outcome, tool: string): ToolCallDecision | undefined {
    if (outcome.decision === 'allow_once' || outcome.decision === 'allow_always') return undefined;
    const said = outcome.message ? `: ${outcome.message}` : '';
    switch (outcome.ended) {
      case 'timeout':
        return {
          action: 'refuse',
          reason: `no answer to the permission request within ${formatDuration(this.p.policy.deadlineMs)}; rejected by default`,
        };
      case 'cancel':
      case 'pause':
        return {
          action: 'refuse',
          reason: `the run was ${outcome.ended === 'cancel' ? 'cancelled' : 'paused'} while permission for ${tool} was pending`,
        };
      case 'shutdown':
        return { action: 'refuse', reason: 'the pod stopped while the permission request was pending' };
    }
    return {
      action: 'refuse',
      reason: `the user rejected this ${tool} call${outcome.decision === 'reject_always' ? ' (and every call like it)' : ''}${said}`,
    };
  }

  async #save(record: AskRecord, decision: Decision, by: string): Promise<void> {
    if (!record.save) return;
    const rule = {
      ...record.save,
      action: decision === 'allow_always' ? ('allow' as const) : ('deny' as const),
      added_at: Date.now(),
      by,
    };
    try {
      await this.saved.add(rule);
    } catch (e) {
      // The decision still applies to this call; the alert says the rule did not stick.
      this.p.pod.services.alert(
        'warn',
        `${this.p.plugin}: the rule for permission request ${record.request.id} was not saved: ${(e as Error).message}`,
      );
    }
  }

  #savedRules() {
    const rules = this.saved.rules();
    const problem = this.saved.problem;
    if (problem !== this.#problemSaid) {
      this.#problemSaid = problem;
      if (problem)
        this.p.pod.services.alert('warn', `${this.p.plugin}: saved permission rules are ignored: ${problem}`);
    }
    return rules.map(asRule);
  }

  #grant(key: string, outcome: Outcome): void {
    this.#grants.set(key, outcome);
    if (this.#grants.size > MAX_GRANTS) this.#grants.delete(this.#grants.keys().next().value!);
  }

  #log(entry: AskLogEntry): void {
    this.p.pod.services.pluginLog.append(this.p.plugin, entry);
  }
}
