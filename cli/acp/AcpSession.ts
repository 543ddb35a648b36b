import {
  RequestError,
  type AgentContext,
  type ContentBlock,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';
import { PodRequestError, type UnknownEvent, type PodClient } from '../../client/PodClient.js';
import type { Event, PodStatus } from '../../core/protocol/index.js';
import { EventTranslator, agentText } from './EventTranslator.js';
import { PermissionBridge, type Decision } from './PermissionBridge.js';
import { promptSegments } from './promptSegments.js';
import { stopReason, type RunOutcome } from './stopReason.js';
import { toolKind } from './toolCallView.js';
import { UpdateQueue } from './UpdateQueue.js';
import { availableCommands } from './availableCommands.js';
import type { OpenedPod } from './openPod.js';

/** Least time between two listings of the pod's commands after runs. */
const COMMANDS_REFRESH_MS = 5000;

/** The editor's run, from `run` to its terminal event. */
interface ActiveRun {
  accepted: boolean;
  sawUserMessage: boolean;
  cancelled: boolean;
  readonly done: Promise<RunOutcome>;
  finish(outcome: RunOutcome): void;
}

export interface SessionPorts {
  readonly acp: AgentContext;
  readonly log: (line: string) => void;
  /** Opens the pod again (after it stopped), resuming `sessionId`. */
  readonly reopen: (sessionId: string) => Promise<OpenedPod>;
}

/**
 * One ACP session: one pod, through one connection. Every event of the pod becomes a
 * `session/update` — runs started by other clients (a terminal's `yoi attach`) included, so the
 * editor's thread mirrors the pod's conversation. A prompt is a `run`, answered at its terminal
 * event; while another client's run is going on, the prompt waits for the pod to be idle.
 */
export class AcpSession {
  private client!: PodClient;
  private translator: EventTranslator;
  private readonly updates: UpdateQueue;
  private readonly permissions: PermissionBridge;
  private run?: ActiveRun;
  /** Set from a `session/prompt` until its answer. */
  private prompting = false;
  private status: PodStatus = 'idle';
  private statusWaiters: (() => void)[] = [];
  private commands = new Set<string>();
  private commandsShown = '';
  private refreshing?: Promise<void>;
  private refreshAgain = false;
  private pasteIds = 0;
  private refreshTimer?: NodeJS.Timeout;
  private lastRefresh = Date.now();
  private offs: (() => void)[] = [];
  /** The pod's session now (compaction moves it on; the ACP id stays the first one). */
  podSessionId: string;

  constructor(
    readonly sessionId: string,
    readonly podName: string,
    readonly cwd: string,
    client: PodClient,
    private readonly ports: SessionPorts,
    early: ReadonlyArray<{ event: Event } | { extension: UnknownEvent }> = [],
  ) {
    this.podSessionId = sessionId;
    this.translator = new EventTranslator(cwd);
    this.updates = new UpdateQueue((update) => ports.acp.notify('session/update', { sessionId, update }), ports.log);
    this.permissions = new PermissionBridge(
      {
        ask: (request, signal) =>
          ports.acp.request('session/request_permission', { sessionId, ...request }, { cancellationSignal: signal }),
        reply: async (id: string, decision: Decision, message?: string) => {
          await this.client.requestExtension('permission_reply', {
            id,
            decision,
            ...(message !== undefined ? { message } : {}),
          });
        },
        callOf: (tool, args) => this.translator.openCallOf(tool, args),
        kindOf: toolKind,
        log: ports.log,
      },
      () => this.run?.cancelled === true,
    );
    this.attach(client, early);
  }

  /** Sends updates (history replay) before anything the pod says next. */
  replay(updates: readonly SessionUpdate[]): Promise<void> {
    for (const u of updates) this.updates.push(u);
    return this.updates.flushed();
  }

  say(text: string): void {
    this.updates.push(agentText(text));
  }

  async prompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    // One prompt at a time: a second would take the first one's run over and leave it unanswered.
    if (this.prompting)
      throw RequestError.invalidRequest(
        { sessionId: this.sessionId },
        'a prompt is already running in this session; wait for its answer (session/cancel ends it sooner)',
      );
    this.prompting = true;
    try {
      return await this.runPrompt(blocks);
    } finally {
      this.prompting = false;
    }
  }

  private async runPrompt(blocks: readonly ContentBlock[]): Promise<StopReason> {
    // Registered before any await: a `session/cancel` right behind the prompt finds it.
    let next: ActiveRun | undefined = this.beginRun();
    await this.ensureConnected().catch((e: unknown) => {
      if (this.run === next) this.run = undefined;
      throw e;
    });
    const input = promptSegments(blocks, {
      cwd: this.cwd,
      commands: this.commands,
      nextPasteId: () => ++this.pasteIds,
    });
    if (input.length === 0 || next.cancelled) {
      if (this.run === next) this.run = undefined;
      return next.cancelled ? 'cancelled' : 'end_turn';
    }
    for (;;) {
      const run: ActiveRun = next ?? this.beginRun();
      next = undefined;
      // The whole run may arrive before the request's own promise settles: whichever is first.
      const requested = this.client.request({ method: 'run', params: { input } }, 60_000).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      const first = await Promise.race([
        requested.then((error) => ({ error })),
        run.done.then((outcome) => ({ outcome })),
      ]);
      const error = 'error' in first ? first.error : undefined;
      if (error !== undefined || !run.accepted) {
        if (error instanceof PodRequestError && error.podCode === 'already_running' && !run.cancelled) {
          // Another client's run: wait for the pod to be free, as a terminal's queued input does
          // (still this session's run meanwhile, so a cancel finds it).
          const free = await this.waitUntilFree(run).finally(() => this.run === run && (this.run = undefined));
          if (free) continue;
          return 'cancelled';
        }
        if (this.run === run) this.run = undefined;
        if (run.cancelled) return 'cancelled';
        const lost = 'outcome' in first && first.outcome.kind === 'lost';
        if (error instanceof PodRequestError || ('outcome' in first && !lost)) {
          // The pod refused the input or could not read it: it is not in the conversation (ACP's `refusal`).
          const why =
            error?.message ??
            ('outcome' in first && first.outcome.kind === 'error'
              ? `${first.outcome.code}: ${first.outcome.message}`
              : 'not accepted');
          this.say(`\n\n> ✖ yoi refused this prompt: ${why}\n\n`);
          await this.updates.flushed();
          return 'refusal';
        }
        const outcome = 'outcome' in first ? first.outcome : undefined;
        throw new RequestError(
          -32603,
          `yoi: ${error?.message ?? (outcome?.kind === 'lost' ? outcome.message : 'the run was not accepted')}`,
        );
      }
      const outcome = await run.done;
      await this.updates.flushed();
      const reason = stopReason(outcome, run.cancelled);
      if (reason !== undefined) {
        if (outcome.kind === 'end' && outcome.event.data.result === 'paused' && !run.cancelled) {
          this.say('\n\n> ⏸ another client paused this run; `yoi resume` continues it\n\n');
          await this.updates.flushed();
        }
        return reason;
      }
      throw new RequestError(
        -32603,
        outcome.kind === 'error'
          ? `yoi: ${outcome.code}: ${outcome.message}`
          : `yoi: ${outcome.kind === 'lost' ? outcome.message : 'the run ended'}`,
      );
    }
  }

  /** `session/cancel`: cancels the editor's run (never another client's). */
  cancel(): void {
    const run = this.run;
    if (!run) return;
    run.cancelled = true;
    if (run.accepted) this.client.send({ method: 'cancel' });
    for (const wake of this.statusWaiters.splice(0)) wake();
  }

  /** Sends `available_commands_update` when the pod's workflows and MCP prompts changed. */
  refreshCommands(): void {
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = (async () => {
      do {
        this.refreshAgain = false;
        try {
          const reply = await this.client.request({
            method: 'list_completions',
            params: { kind: 'workflow_invoke', prefix: '' },
          });
          if (reply.event !== 'completions') continue;
          const commands = availableCommands(reply.data.items);
          this.commands = new Set(commands.map((c) => c.name));
          const shown = JSON.stringify(commands);
          if (shown !== this.commandsShown) {
            this.commandsShown = shown;
            this.updates.push({ sessionUpdate: 'available_commands_update', availableCommands: commands });
          }
        } catch (e) {
          if (this.client.connected) this.ports.log(`cannot list the pod's commands: ${(e as Error).message}`);
        }
      } while (this.refreshAgain && this.client.connected);
    })().finally(() => (this.refreshing = undefined));
  }

  /** After a run (workflows may be new): at most every few seconds, off the next prompt's path. */
  private refreshCommandsLater(): void {
    if (this.refreshTimer) return;
    const wait = Math.max(0, this.lastRefresh + COMMANDS_REFRESH_MS - Date.now());
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      this.lastRefresh = Date.now();
      if (this.client.connected) this.refreshCommands();
    }, wait);
    this.refreshTimer.unref();
  }

  async close(): Promise<void> {
    clearTimeout(this.refreshTimer);
    this.permissions.close();
    for (const off of this.offs.splice(0)) off();
    await this.client.close();
  }

  private attach(client: PodClient, early: ReadonlyArray<{ event: Event } | { extension: UnknownEvent }> = []): void {
    for (const off of this.offs.splice(0)) off();
    this.client = client;
    this.translator = new EventTranslator(this.cwd);
    this.status = client.welcome?.status ?? 'idle';
    for (const item of early) {
      if ('event' in item) this.onEvent(item.event);
      else this.onExtension(item.extension);
    }
    this.offs.push(
      client.onEvent((e) => this.onEvent(e)),
      client.onUnknownEvent((e) => this.onExtension(e)),
    );
    void client.closed.then(() => {
      if (this.client !== client) return;
      this.permissions.close();
      this.run?.finish({ kind: 'lost', message: `the connection to pod ${this.podName} closed during the run` });
      for (const wake of this.statusWaiters.splice(0)) wake();
    });
  }

  private async ensureConnected(): Promise<void> {
    if (this.client.connected) return;
    const opened = await this.ports.reopen(this.podSessionId);
    this.attach(opened.client, opened.release());
    this.refreshCommands();
  }

  private beginRun(): ActiveRun {
    let finish!: (o: RunOutcome) => void;
    const done = new Promise<RunOutcome>((r) => (finish = r));
    const run: ActiveRun = {
      accepted: false,
      sawUserMessage: false,
      cancelled: false,
      done,
      finish: (o) => (this.run === run && (this.run = undefined), finish(o)),
    };
    this.run = run;
    return run;
  }

  /** Resolves true once the pod can take a run, false when the editor cancelled meanwhile. */
  private async waitUntilFree(run: ActiveRun): Promise<boolean> {
    while (this.status === 'running' || this.status === 'compacting') {
      if (run.cancelled) return false;
      if (!this.client.connected) throw new RequestError(-32603, `yoi: the connection to pod ${this.podName} closed`);
      await new Promise<void>((wake) => this.statusWaiters.push(wake));
    }
    return !run.cancelled;
  }

  private onEvent(e: Event): void {
    // Acceptance is noted as the events are read: the run's own events may follow in the same chunk.
    const run = this.run;
    if (e.event === 'ack' && e.data.method === 'run' && run && !run.accepted) {
      run.accepted = true;
      if (run.cancelled) this.client.send({ method: 'cancel' });
      return;
    }
    if (e.event === 'status') {
      this.status = e.data.status;
      this.podSessionId = e.data.session_id;
      if (e.data.status !== 'running' && e.data.status !== 'compacting')
        for (const wake of this.statusWaiters.splice(0)) wake();
      return;
    }
    if (e.event === 'user_message' && run?.accepted && !run.sawUserMessage) {
      run.sawUserMessage = true; // the editor shows its own prompt already
      return;
    }
    if (run?.accepted) {
      if (e.event === 'run_end') {
        this.emitAll(this.translator.translate(e));
        run.finish({ kind: 'end', event: e });
        this.refreshCommandsLater();
        return;
      }
      if (e.event === 'error' && e.request_id === undefined) {
        if (e.seq === undefined) return; // about a line of ours, not the run's end
        run.finish({ kind: 'error', code: e.data.code, message: e.data.message });
        return;
      }
    } else if (run && e.event === 'error' && e.request_id === undefined && e.seq === undefined) {
      // The pod could not read the run's line (too long): the request gets no answer of its own.
      run.finish({ kind: 'error', code: e.data.code, message: e.data.message });
      return;
    }
    if (e.event === 'shutdown') {
      this.say(`\n\n> pod ${this.podName} shut down; the next prompt starts it again\n\n`);
      return;
    }
    // After runs (workflows may be new) and live alerts (an MCP server ready, restarted or gone).
    if (e.event === 'run_end' || (e.event === 'alert' && e.seq !== undefined)) this.refreshCommandsLater();
    if (e.event === 'tool_progress') return this.emitAll(this.translator.progress(e.data));
    this.emitAll(this.translator.translate(e));
  }

  private onExtension(e: UnknownEvent): void {
    if (e.event === 'permission_request') this.permissions.onRequest(e.data);
    else if (e.event === 'permission_resolved') this.permissions.onResolved(e.data);
  }

  private emitAll(updates: readonly SessionUpdate[]): void {
    for (const u of updates) this.updates.push(u);
  }
}
