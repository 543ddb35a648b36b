import type { SessionUpdate } from '@agentclientprotocol/sdk';

/** Updates waiting for the editor to read them; past this, streamed text is dropped and counted. */
const MAX_QUEUED = 4096;

/**
 * Sends one session's updates in order, one at a time (the SDK's writes then wait on the editor
 * reading stdout). While the editor is slow, consecutive message chunks are joined, so a long
 * reply queues as one update, and the queue is bounded: beyond it, text is counted, not kept.
 */
export class UpdateQueue {
  private readonly queue: SessionUpdate[] = [];
  private draining = false;
  private dropped = 0;
  private idle: Promise<void> = Promise.resolve();
  private resolveIdle?: () => void;

  constructor(
    private readonly send: (update: SessionUpdate) => Promise<void>,
    private readonly log: (line: string) => void,
  ) {}

  push(update: SessionUpdate): void {
    const last = this.queue.at(-1);
    if (last && joinable(last, update)) {
      (last as { content: { text: string } }).content.text += (update as { content: { text: string } }).content.text;
    } else if (this.queue.length >= MAX_QUEUED) {
      this.dropped++;
      return;
    } else {
      this.queue.push(update); // fresh objects from the translator: joining may change them
    }
    if (!this.draining) void this.drain();
  }

  /** Resolves once everything pushed so far was handed to the SDK. */
  flushed(): Promise<void> {
    return this.draining ? this.idle : Promise.resolve();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    this.idle = new Promise((r) => (this.resolveIdle = r));
    try {
      for (let next = this.queue.shift(); next !== undefined; next = this.queue.shift()) {
        await this.send(next).catch((e: Error) => this.log(`session/update not sent: ${e.message}`));
        if (this.dropped > 0 && this.queue.length === 0) {
          this.log(`the editor read too slowly: ${this.dropped} updates were dropped`);
          this.dropped = 0;
        }
      }
    } finally {
      this.draining = false;
      this.resolveIdle?.();
    }
  }
}

function joinable(a: SessionUpdate, b: SessionUpdate): boolean {
  return (
    a.sessionUpdate === b.sessionUpdate &&
    (a.sessionUpdate === 'agent_message_chunk' || a.sessionUpdate === 'user_message_chunk') &&
    (a as { content: { type: string } }).content.type === 'text' &&
    (b as { content: { type: string } }).content.type === 'text' &&
    (a as { messageId?: unknown }).messageId === (b as { messageId?: unknown }).messageId
  );
}
