import { PodRequestError } from '../../core/client/PodClient.js';
import type { Event, PodStatus, Segment } from '../../core/protocol/index.js';
import type { AttachState, AttachStore } from './AttachStore.js';
import { InputBuffer } from './InputBuffer.js';
import { keyIntent, type Intent } from './keyIntent.js';
import { newPaste } from './pasteChip.js';
import { PodLink } from './PodLink.js';
import { refAtCursor } from './refTokens.js';
import { TerminalInput, type TerminalInputEvent } from './TerminalInput.js';
import { addNote, reduceEvents } from './transcriptReducer.js';

export interface AttachControllerOptions {
  socketPath: string;
  store: AttachStore;
  /** Called once when the user quits (or the pod was shut down from here). */
  onQuit: () => void;
  now?: () => number;
  batchMs?: number;
}

/** Window for the second Ctrl-C (quit) or Ctrl-D (shut down a running pod). */
const CONFIRM_MS = 3000;
const COMPLETION_DELAY_MS = 60;

/**
 * The attach client's behaviour: terminal input → intents → input edits and pod requests, pod
 * events → the transcript. Submissions made while a run is active (or the pod is unreachable)
 * are queued and sent one by one whenever the pod is idle again; a rejected one goes back to the
 * front of the queue, so input is never lost.
 */
export class AttachController {
  /** Set by the view on every render: transcript lines in total and on screen. */
  layout = { total: 0, height: 1 };
  readonly terminal = new TerminalInput((e) => this.onTerminal(e));
  private readonly link: PodLink;
  private status: PodStatus | undefined;
  private sending = false;
  private quitting = false;
  private shutdownAsked = false;
  private lastInterrupt = -Infinity;
  private lastShutdown = -Infinity;
  private noticeTimer?: NodeJS.Timeout;
  private completionTimer?: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly opts: AttachControllerOptions) {
    this.now = opts.now ?? Date.now;
    this.link = new PodLink({
      socketPath: opts.socketPath,
      batchMs: opts.batchMs,
      onEvent: (e) => this.onEvent(e),
      onEvents: (events) => this.update((s) => ({ ...s, transcript: reduceEvents(s.transcript, events) })),
      onConnection: (connection) => {
        if (connection !== 'connected') this.status = undefined;
        this.update((s) => (s.connection === connection ? s : { ...s, connection }));
        if (connection === 'connected') this.sendQueued();
      },
    });
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

  async stop(): Promise<void> {
    this.quitting = true;
    clearTimeout(this.noticeTimer);
    clearTimeout(this.completionTimer);
    this.terminal.dispose();
    await this.link.close();
  }

  /** Handles one intent (a key press after `keyIntent`); exposed for tests. */
  handle(intent: Intent): void {
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
      case 'move':
        return this.edit(input[intent.to]());
      case 'submit':
        return this.submit();
      case 'complete':
        return this.complete();
      case 'scroll':
        return this.scroll(intent.by);
      case 'toggle-tools':
        return this.update((s) => ({ ...s, showTools: !s.showTools }));
      case 'interrupt':
        return this.interrupt();
      case 'cancel':
        if (this.status === 'running' || this.status === 'paused' || this.status === 'compacting') return this.ask('cancel');
        return this.notice('nothing to cancel: no run is active');
      case 'shutdown':
        return this.shutdown();
    }
  }

  private onTerminal(event: TerminalInputEvent): void {
    if (event.type === 'paste') {
      if (event.text !== '') this.edit(this.state.input.insertPaste(newPaste(event.text)));
      return;
    }
    const intent = keyIntent(event.key);
    if (intent) this.handle(intent);
  }

  private onEvent(e: Event): void {
    switch (e.event) {
      case 'welcome':
        this.status = e.data.status;
        break;
      case 'status':
        this.status = e.data.status;
        if (this.status === 'idle') this.sendQueued();
        break;
      case 'lagged':
        this.link.resync();
        break;
      case 'shutdown':
        if (this.shutdownAsked) this.quit();
        break;
    }
  }

  private submit(): void {
    const input = this.state.input;
    if (input.isBlank) {
      this.update((s) => ({ ...s, input: InputBuffer.empty, completion: undefined }));
      if (this.status === 'paused') this.ask('resume');
      return;
    }
    const segments = input.toSegments();
    const direct = this.link.connected && !this.sending && this.state.queue.length === 0 && (this.status === 'idle' || this.status === 'paused');
    this.update((s) => ({ ...s, input: InputBuffer.empty, completion: undefined, scroll: 'follow', queue: direct ? s.queue : [...s.queue, segments] }));
    if (direct) this.send(segments);
    else this.notice(this.link.connected ? 'queued: it is sent when the run ends' : 'queued: it is sent once the pod is reachable');
  }

  /** Sends the oldest queued input if the pod is idle and nothing is on its way. */
  private sendQueued(): void {
    const [next] = this.state.queue;
    if (!next || this.sending || !this.link.connected || this.status !== 'idle') return;
    this.update((s) => ({ ...s, queue: s.queue.slice(1) }));
    this.send(next);
  }

  private send(segments: readonly Segment[]): void {
    const client = this.link.client;
    if (!client) return this.requeue(segments);
    this.sending = true;
    client.request({ method: 'run', params: { input: [...segments] } }).then(
      () => {
        this.sending = false;
      },
      (e: Error) => {
        this.sending = false;
        if (!(e instanceof PodRequestError) || e.podCode === 'already_running') return this.requeue(segments);
        // Refused for good (bad input): say why and give the text back to edit.
        this.update((s) => ({ ...s, transcript: addNote(s.transcript, 'error', `[error ${e.podCode}] ${e.message.replace(/^[a-z_]+: /, '')}`) }));
        if (this.state.input.length === 0) this.update((s) => ({ ...s, input: InputBuffer.fromSegments(segments) }));
      },
    );
  }

  private requeue(segments: readonly Segment[]): void {
    this.update((s) => ({ ...s, queue: [segments, ...s.queue] }));
    if (this.status === 'idle') setTimeout(() => this.sendQueued(), 100).unref?.();
  }

  private interrupt(): void {
    if (this.status === 'running' || this.status === 'compacting') {
      this.ask('pause');
      return this.notice('pausing… (Enter on an empty line resumes)');
    }
    const now = this.now();
    if (now - this.lastInterrupt <= CONFIRM_MS) return this.quit();
    this.lastInterrupt = now;
    const queued = this.state.queue.length;
    this.notice(`press Ctrl-C again to quit (the pod keeps running${queued ? `; ${queued} queued ${queued === 1 ? 'input is' : 'inputs are'} not sent` : ''})`);
  }

  private shutdown(): void {
    const now = this.now();
    if (this.status === 'running' && now - this.lastShutdown > CONFIRM_MS) {
      this.lastShutdown = now;
      return this.notice('a run is active: press Ctrl-D again to shut the pod down');
    }
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
    const step = { 'line-up': -1, 'line-down': 1, 'page-up': -height, 'page-down': height, top: -Infinity, bottom: Infinity }[by];
    const top = Math.max(0, current + step);
    this.update((s) => ({ ...s, scroll: top >= maxTop ? 'follow' : top }));
  }

  private complete(): void {
    const { input, completion } = this.state;
    const ref = refAtCursor(input.atoms, input.cursor);
    if (!ref || !completion || completion.start !== ref.start || completion.items.length === 0) return this.refreshCompletion();
    const value = input.atoms.slice(ref.start + 1, ref.end).map((a) => (a.kind === 'char' ? a.ch : '')).join('');
    // A second Tab on an inserted candidate moves on to the next one.
    const selected = value === completion.items[completion.selected] ? (completion.selected + 1) % completion.items.length : completion.selected;
    const next = input.replace(ref.start + 1, ref.end, completion.items[selected]);
    this.update((s) => ({ ...s, input: next, completion: { ...completion, selected } }));
    if (completion.items.length === 1) this.refreshCompletion(); // a directory: offer what is inside
  }

  private edit(input: InputBuffer): void {
    if (input === this.state.input) return;
    this.update((s) => ({ ...s, input }));
    this.refreshCompletion();
  }

  /** Asks the pod for candidates for the reference before the cursor (debounced; stale replies dropped). */
  private refreshCompletion(): void {
    clearTimeout(this.completionTimer);
    const { input, completion } = this.state;
    const ref = refAtCursor(input.atoms, input.cursor);
    if (!ref) {
      if (completion) this.update((s) => ({ ...s, completion: undefined }));
      return;
    }
    if (completion && (completion.start !== ref.start || completion.kind !== ref.kind)) this.update((s) => ({ ...s, completion: undefined }));
    this.completionTimer = setTimeout(() => {
      const client = this.link.client;
      if (!client || !this.link.connected) return;
      client.request({ method: 'list_completions', params: { kind: ref.kind, prefix: ref.prefix } }).then((reply) => {
        if (reply.event !== 'completions') return;
        const now = this.state.input;
        const still = refAtCursor(now.atoms, now.cursor);
        if (!still || still.start !== ref.start || still.prefix !== ref.prefix) return;
        this.update((s) => ({ ...s, completion: { kind: ref.kind, prefix: ref.prefix, start: ref.start, items: reply.data.items, selected: 0 } }));
      }, () => undefined);
    }, COMPLETION_DELAY_MS);
  }

  private notice(text: string): void {
    clearTimeout(this.noticeTimer);
    this.update((s) => ({ ...s, notice: text }));
    this.noticeTimer = setTimeout(() => this.update((s) => (s.notice === text ? { ...s, notice: undefined } : s)), CONFIRM_MS);
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
