import { PodRequestError } from '../../client/PodClient.js';
import type { Event, PodStatus, Segment } from '../../core/protocol/index.js';
import type { AttachState, AttachStore, Question } from './AttachStore.js';
import { Completer } from './Completer.js';
import { InputBuffer, type Atom } from './InputBuffer.js';
import { InputHistory } from './InputHistory.js';
import { keyIntent, type Intent } from './keyIntent.js';
import { loadMarkdown } from './markdownLines.js';
import { newPaste } from './pasteChip.js';
import { PermissionPrompt } from './PermissionPrompt.js';
import { PodLink } from './PodLink.js';
import { answerOf } from './questions.js';
import { RunSender } from './RunSender.js';
import { TerminalInput, type TerminalInputEvent } from './TerminalInput.js';
import { addNote, reduceEvents } from './transcriptReducer.js';

export interface AttachControllerOptions {
  socketPath: string;
  /** A pod's network listener instead of the socket, and its bearer token (`--url`). */
  url?: string;
  token?: string;
  store: AttachStore;
  /** Called once when the user quits (or the pod was shut down from here). */
  onQuit: () => void;
  now?: () => number;
  batchMs?: number;
  /** Where the input history's state directory is found (`XDG_STATE_HOME`); defaults to the process's. */
  env?: NodeJS.ProcessEnv;
}

/** Window for the second Ctrl-C (quit). */
const CONFIRM_MS = 3000;
const ACTIVE: ReadonlySet<PodStatus | undefined> = new Set(['running', 'compacting']);

/**
 * The attach client's behaviour: terminal input → intents → input edits and pod requests, pod
 * events → the transcript. Inputs go through RunSender (queued while a run is active, never
 * lost). Shutting the pod down, and sending while a run is paused (which abandons it), are
 * asked first.
 */
export class AttachController {
  /** Set by the view on every render: transcript lines in total and on screen. */
  layout = { total: 0, height: 1 };
  readonly terminal = new TerminalInput((e) => this.onTerminal(e));
  private readonly link: PodLink;
  private readonly completer: Completer;
  private readonly sender: RunSender;
  private readonly history: InputHistory;
  private readonly asks: PermissionPrompt;
  private status: PodStatus | undefined;
  private quitting = false;
  private shutdownAsked = false;
  private lastInterrupt = -Infinity;
  private noticeTimer?: NodeJS.Timeout;
  /** What the last Ctrl-U/K/W (Alt-D, Alt-Backspace) removed, for Ctrl-Y. */
  private killed: readonly Atom[] = [];
  private readonly now: () => number;

  constructor(private readonly opts: AttachControllerOptions) {
    this.now = opts.now ?? Date.now;
    this.link = new PodLink({
      socketPath: opts.socketPath,
      url: opts.url,
      token: opts.token,
      batchMs: opts.batchMs,
      onEvent: (e) => this.onEvent(e),
      onUnknownEvent: (e) => this.asks.onUnknownEvent(e),
      onEvents: (events) => this.update((s) => ({ ...s, transcript: reduceEvents(s.transcript, events) })),
      onConnection: (connection) => {
        if (connection !== 'connected') this.status = undefined;
        if (connection !== 'connected') this.asks.reset();
        this.update((s) => (s.connection === connection ? s : { ...s, connection }));
        if (connection === 'connected') this.sender.sendQueued();
      },
    });
    const client = () => (this.link.connected ? this.link.client : undefined);
    this.sender = new RunSender({
      state: () => this.state,
      update: (f) => this.update(f),
      client,
      status: () => this.status,
      notice: (t) => this.notice(t),
    });
    this.completer = new Completer({ state: () => this.state, update: (f) => this.update(f), client });
    this.asks = new PermissionPrompt({ state: () => this.state, update: (f) => this.update(f), client, now: this.now });
    this.history = new InputHistory((message) =>
      this.update((s) => ({ ...s, transcript: addNote(s.transcript, 'info', message) })),
    );
  }

  /** True once this client asked the pod to shut down. */
  get podShutDown(): boolean {
    return this.shutdownAsked;
  }

  get state(): AttachState {
    return this.opts.store.getState();
  }

  /** Connects; rejects with a one-line error when the pod cannot be reached. */
  start(): Promise<void> {
    return this.link.open();
  }

  /** Loads the markdown renderer and redraws the transcript with it (call after the first frame). */
  async enableMarkdown(): Promise<void> {
    await loadMarkdown();
    this.update((s) => ({ ...s, markdown: true }));
  }

  /** Reloads the history (as after `lagged`): history-backed blocks are rebuilt. */
  resync(): void {
    this.link.resync();
  }

  async stop(): Promise<void> {
    this.quitting = true;
    clearTimeout(this.noticeTimer);
    this.completer.dispose();
    this.asks.dispose();
    this.terminal.dispose();
    await this.link.close();
  }

  /** Handles one intent (a key press after `keyIntent`); exposed for tests. */
  handle(intent: Intent): void {
    if (this.asks.handle(intent)) return; // a permission ask on screen takes its keys first
    const question = this.state.question;
    if (question) {
      const answer = answerOf(question, intent);
      this.update((s) => ({ ...s, question: undefined }));
      if (answer !== 'pass') return this.answer(question, answer);
    }
    const input = this.state.input;
    switch (intent.type) {
      case 'insert':
        return this.edit(input.insertText(intent.text));
      case 'newline':
        return this.edit(input.insertText('\n'));
      case 'backspace':
        return this.edit(input.backspace());
      case 'delete':
        return this.edit(input.deleteForward());
      case 'kill': {
        const to = input.boundary(intent.to);
        if (to === input.cursor) return;
        this.killed = input.atoms.slice(Math.min(to, input.cursor), Math.max(to, input.cursor));
        return this.edit(input.deleteRange(to, input.cursor));
      }
      case 'yank':
        return this.edit(input.insertAtoms(this.killed));
      case 'move':
        if (intent.to === 'up' && input.onFirstLine && this.recall('prev')) return;
        if (intent.to === 'down' && input.onLastLine && this.history.browsing && this.recall('next')) return;
        this.update((s) => ({ ...s, input: input[intent.to]() }));
        return this.completer.refresh();
      case 'history':
        return void this.recall(intent.dir);
      case 'submit':
        return this.submit();
      case 'complete':
        return this.completer.tab();
      case 'scroll':
        return this.scroll(intent.by);
      case 'toggle-tools':
        return this.update((s) => ({ ...s, showTools: !s.showTools }));
      case 'interrupt':
        return this.interrupt();
      case 'cancel':
        if (ACTIVE.has(this.status) || this.status === 'paused') return this.ask('cancel');
        return this.notice('nothing to cancel: no run is active');
      case 'shutdown':
        if (!this.link.connected) return this.notice('not connected to the pod');
        return this.update((s) => ({ ...s, question: { kind: 'shutdown' } }));
      case 'escape':
        return this.update((s) => (s.completion ? { ...s, completion: undefined } : s));
    }
  }

  private onTerminal(event: TerminalInputEvent): void {
    if (event.type === 'paste') {
      if (this.state.question) this.update((s) => ({ ...s, question: undefined }));
      if (event.text !== '') this.edit(this.state.input.insertPaste(newPaste(event.text)));
      return;
    }
    const intent = keyIntent(event.key);
    if (intent) this.handle(intent);
  }

  private onEvent(e: Event): void {
    const before = this.status;
    switch (e.event) {
      case 'welcome':
        this.status = e.data.status;
        break;
      case 'status':
        this.status = e.data.status;
        if (this.status === 'idle') this.sender.sendQueued();
        break;
      case 'history':
        this.history.open(e.data.greeting.cwd, this.opts.env);
        break;
      case 'lagged':
        this.link.resync();
        break;
      case 'shutdown':
        if (this.shutdownAsked) this.quit();
        break;
    }
    if (ACTIVE.has(this.status) !== ACTIVE.has(before))
      this.update((s) => ({ ...s, runSince: ACTIVE.has(this.status) ? Date.now() : undefined }));
    // A question about a paused run means nothing once the run is over.
    if (this.state.question?.kind === 'abandon' && this.status !== 'paused')
      this.update((s) => ({ ...s, question: undefined }));
  }

  private submit(): void {
    const input = this.state.input;
    if (input.isBlank) {
      this.update((s) => ({ ...s, input: InputBuffer.empty, completion: undefined }));
      if (this.status === 'paused') this.ask('resume');
      return;
    }
    const segments = input.toSegments(this.state.transcript.kinds);
    if (this.status === 'paused' && this.link.connected)
      return this.update((s) => ({ ...s, question: { kind: 'abandon', segments } }));
    this.accept(segments);
    this.sender.submit(segments);
  }

  /** The input is taken: the editor empties and the history records it. */
  private accept(segments: readonly Segment[]): void {
    this.history.add(segments);
    this.completer.dispose();
    this.update((s) => ({ ...s, input: InputBuffer.empty, completion: undefined, scroll: 'follow' }));
  }

  private answer(question: Question, answer: 'yes' | 'alternative' | 'no'): void {
    if (question.kind === 'shutdown') {
      if (answer === 'yes') return this.shutdown();
      return this.notice('the pod keeps running');
    }
    if (answer === 'no') return this.notice('not sent: the run stays paused');
    this.accept(question.segments);
    // A run sent while paused abandons the paused one (its open tool calls are closed).
    if (answer === 'yes') return this.sender.sendWhilePaused(question.segments);
    this.sender.enqueue(question.segments, 'resuming: your message is sent when the run ends');
    this.ask('resume');
  }

  /** Up/Down through earlier inputs; false when there is nothing to recall. */
  private recall(dir: 'prev' | 'next'): boolean {
    const input = this.history.recall(dir, this.state.input, this.state.transcript.kinds);
    if (input) this.update((s) => ({ ...s, input, completion: undefined }));
    return input !== undefined;
  }

  private interrupt(): void {
    if (ACTIVE.has(this.status)) {
      this.ask('pause');
      return this.notice('pausing… (Enter on an empty line resumes)');
    }
    const now = this.now();
    if (now - this.lastInterrupt <= CONFIRM_MS) return this.quit();
    this.lastInterrupt = now;
    const queued = this.state.queue.length;
    this.notice(
      `press Ctrl-C again to quit (the pod keeps running${queued ? `; ${queued} queued ${queued === 1 ? 'input is' : 'inputs are'} not sent` : ''})`,
    );
  }

  private shutdown(): void {
    if (!this.link.connected) return this.notice('not connected to the pod');
    this.shutdownAsked = true;
    this.notice('shutting the pod down…');
    void this.link.client!.closed.then(() => this.quit());
    this.ask('shutdown');
  }

  /** Sends a control method; a refusal is shown with its code. */
  private ask(method: 'pause' | 'resume' | 'cancel' | 'shutdown'): void {
    const client = this.link.client;
    if (!client || !this.link.connected) return this.notice('not connected to the pod');
    client.request({ method }).catch((e: Error) => {
      const code = e instanceof PodRequestError ? e.podCode : 'connection';
      const text = e instanceof PodRequestError ? e.message.replace(/^[a-z_]+: /, '') : e.message;
      if (!(method === 'shutdown' && !(e instanceof PodRequestError))) {
        this.update((s) => ({ ...s, transcript: addNote(s.transcript, 'error', `[error ${code}] ${text}`) }));
      }
    });
  }

  private scroll(by: Extract<Intent, { type: 'scroll' }>['by']): void {
    const { total, height } = this.layout;
    const maxTop = Math.max(0, total - height);
    const current = this.state.scroll === 'follow' ? maxTop : this.state.scroll;
    const step = {
      'line-up': -1,
      'line-down': 1,
      'page-up': -height,
      'page-down': height,
      top: -Infinity,
      bottom: Infinity,
    }[by];
    const top = Math.max(0, current + step);
    this.update((s) => ({ ...s, scroll: top >= maxTop ? 'follow' : top }));
  }

  private edit(input: InputBuffer): void {
    if (input === this.state.input) return;
    this.history.stopBrowsing();
    this.update((s) => ({ ...s, input }));
    this.completer.refresh();
  }

  private notice(text: string): void {
    clearTimeout(this.noticeTimer);
    this.update((s) => ({ ...s, notice: text }));
    this.noticeTimer = setTimeout(
      () => this.update((s) => (s.notice === text ? { ...s, notice: undefined } : s)),
      CONFIRM_MS,
    );
    this.noticeTimer.unref?.();
  }

  private quit(): void {
    if (this.quitting) return;
    this.quitting = true;
    this.opts.onQuit();
  }

  private update(f: (s: AttachState) => AttachState): void {
    this.opts.store.update(f);
  }
}
