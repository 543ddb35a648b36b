import { PodRequestError, type PodClient } from '../../client/PodClient.js';
import type { PodStatus, Segment } from '../../core/protocol/index.js';
import type { AttachState } from './AttachStore.js';
import { InputBuffer } from './InputBuffer.js';
import { addNote } from './transcriptReducer.js';

export interface RunSenderDeps {
  state: () => AttachState;
  update: (f: (s: AttachState) => AttachState) => void;
  /** The client while connected. */
  client: () => PodClient | undefined;
  status: () => PodStatus | undefined;
  notice: (text: string) => void;
}

/**
 * Sends inputs as `run`s, one at a time: at once when the pod is idle and nothing waits, else
 * queued (shown at the end of the transcript) and sent when the pod reports `idle`. A run
 * refused with `already_running`, or lost with the connection, goes back to the front of the
 * queue; any other refusal is shown with its code and the input returns to the editor.
 */
export class RunSender {
  private sending = false;

  constructor(private readonly deps: RunSenderDeps) {}

  /** Sends now if the pod is idle and nothing is queued or on its way, else queues. */
  submit(segments: readonly Segment[]): void {
    const { client, status, state } = this.deps;
    if (client() && !this.sending && state().queue.length === 0 && status() === 'idle') return this.send(segments);
    this.enqueue(
      segments,
      client() ? 'queued: it is sent when the run ends' : 'queued: it is sent once the pod is reachable',
    );
  }

  /** Sends while paused, which abandons the paused run (queued if something is on its way). */
  sendWhilePaused(segments: readonly Segment[]): void {
    if (this.deps.status() === 'paused' && !this.sending && this.deps.client()) return this.send(segments);
    this.enqueue(segments, 'queued: it is sent when the run ends');
  }

  enqueue(segments: readonly Segment[], notice: string): void {
    this.deps.update((s) => ({ ...s, queue: [...s.queue, segments] }));
    this.deps.notice(notice);
  }

  /** Sends the oldest queued input if the pod is idle and nothing is on its way. */
  sendQueued(): void {
    const [next] = this.deps.state().queue;
    if (!next || this.sending || !this.deps.client() || this.deps.status() !== 'idle') return;
    this.deps.update((s) => ({ ...s, queue: s.queue.slice(1) }));
    this.send(next);
  }

  private send(segments: readonly Segment[]): void {
    const client = this.deps.client();
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
        this.deps.update((s) => ({
          ...s,
          transcript: addNote(s.transcript, 'error', `[error ${e.podCode}] ${e.message.replace(/^[a-z_]+: /, '')}`),
        }));
        if (this.deps.state().input.length === 0)
          this.deps.update((s) => ({ ...s, input: InputBuffer.fromSegments(segments, s.transcript.kinds) }));
      },
    );
  }

  private requeue(segments: readonly Segment[]): void {
    this.deps.update((s) => ({ ...s, queue: [segments, ...s.queue] }));
    if (this.deps.status() === 'idle') setTimeout(() => this.sendQueued(), 100).unref?.();
  }
}
