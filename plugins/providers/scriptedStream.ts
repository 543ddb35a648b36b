import { setTimeout as sleep } from 'node:timers/promises';
import { countItemsTokens, type BufferedPartIterator, type LlmRequest, type ProviderPart } from '../../core/api.js';
import type { ScriptReply } from './scriptedProvider.js';

/** Chunks handed out between two turns of the event loop, as a network stream's reads would. */
const CHUNKS_PER_TURN = 64;

/**
 * One scripted reply as a provider stream (ARCHITECTURE §8): its text chunks as `text-delta`s,
 * then its error, or its tool calls, usage and finish. The chunks come from a plain async
 * iterator whose `next()` is an already-resolved promise (an async generator costs a suspension,
 * a resumption and an await per chunk, as much as the rest of the pod's work on a delta); every
 * CHUNKS_PER_TURN chunks it waits for the event loop, so the pod reads a cancel between them.
 * The abort signal is checked before every chunk, like the generator it replaces. The pod takes
 * the chunks that follow one `next()` with `takeBuffered()`, without a promise each.
 */
export class ScriptedStream implements AsyncIterableIterator<ProviderPart>, BufferedPartIterator {
  private readonly chunks: readonly string[];
  private i = 0;
  private phase: 'start' | 'chunks' | 'tail' | 'done' = 'start';
  /** Set before every CHUNKS_PER_TURN-th chunk once the event loop has had its turn. */
  private rested = false;
  private delayed = false;
  /** A wait in progress (the delay, a turn of the event loop): calls made meanwhile queue behind it. */
  private busy?: Promise<void>;
  private tail?: AsyncGenerator<ProviderPart>;

  constructor(
    private readonly reply: ScriptReply,
    private readonly request: LlmRequest,
    private readonly newId: () => string,
  ) {
    this.chunks = reply.chunks ?? (reply.text !== undefined ? [reply.text] : []);
    // Read per chunk: a flag the abort sets costs less than the signal's `aborted` getter.
    this.aborted = request.signal.aborted;
    if (!this.aborted) request.signal.addEventListener('abort', this.onAbort, { once: true });
  }

  private aborted: boolean;
  private readonly onAbort = () => {
    this.aborted = true;
  };

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ProviderPart>> {
    if (this.busy) return this.busy.then(() => this.next());
    if (this.phase === 'chunks' && this.i < this.chunks.length) {
      if (this.i % CHUNKS_PER_TURN === CHUNKS_PER_TURN - 1 && !this.rested) {
        this.rested = true;
        return this.wait(new Promise((resolve) => setImmediate(resolve)));
      }
      this.rested = false;
      if (this.aborted) return this.end();
      return Promise.resolve({ value: { type: 'text-delta', text: this.chunks[this.i++] }, done: false });
    }
    // Once per stream: kept out of the path above, which runs per burst and is optimized; the
    // signal's shape differs between runs, and a failed check there threw that code away.
    return this.nextOutsideChunks();
  }

  private nextOutsideChunks(): Promise<IteratorResult<ProviderPart>> {
    const { signal } = this.request;
    if (this.phase === 'start') {
      if (this.reply.delay_ms && !this.delayed) {
        this.delayed = true;
        return this.wait(sleep(this.reply.delay_ms, undefined, { signal }).catch(() => undefined));
      }
      if (signal.aborted) return this.end();
      this.phase = 'chunks';
      return this.next();
    }
    if (this.phase === 'chunks') {
      this.phase = 'tail';
      signal.removeEventListener('abort', this.onAbort); // the tail reads the signal itself
      this.tail = tailParts(this.reply, this.request, this.newId, this.chunks);
    }
    if (this.phase === 'tail') {
      return this.tail!.next().then((r) => {
        if (r.done) this.phase = 'done';
        return r;
      });
    }
    return this.end();
  }

  /**
   * The next chunk without a promise, unless a turn of the event loop (or the end of the text) is
   * due: then `undefined`, and the pod awaits `next()`.
   */
  takeBuffered(): ProviderPart | undefined {
    if (this.busy || this.phase !== 'chunks' || this.i >= this.chunks.length) return undefined;
    if (this.i % CHUNKS_PER_TURN === CHUNKS_PER_TURN - 1 && !this.rested) return undefined;
    this.rested = false;
    if (this.aborted) return undefined;
    return { type: 'text-delta', text: this.chunks[this.i++] };
  }

  /** Stops the stream (a consumer that leaves its `for await` early). */
  return(): Promise<IteratorResult<ProviderPart>> {
    const tail = this.tail;
    this.phase = 'done';
    return tail ? tail.return(undefined).then(() => this.end()) : this.end();
  }

  private wait(p: Promise<unknown>): Promise<IteratorResult<ProviderPart>> {
    const busy = p.then(() => {
      this.busy = undefined;
    });
    this.busy = busy;
    return busy.then(() => this.next());
  }

  private end(): Promise<IteratorResult<ProviderPart>> {
    this.phase = 'done';
    this.request.signal.removeEventListener('abort', this.onAbort);
    return Promise.resolve({ value: undefined, done: true });
  }
}

/** What follows a reply's text: its error, or its tool calls, usage and finish. */
async function* tailParts(
  reply: ScriptReply,
  request: LlmRequest,
  newId: () => string,
  chunks: readonly string[],
): AsyncGenerator<ProviderPart> {
  if (reply.error !== undefined) {
    yield { type: 'error', message: reply.error };
    return;
  }
  for (const call of reply.tool_calls ?? []) {
    const id = newId();
    const args = JSON.stringify(call.arguments);
    yield { type: 'tool-call-start', id, name: call.name };
    yield { type: 'tool-call-delta', id, delta: args };
    yield { type: 'tool-call-done', id, name: call.name, arguments: args };
  }
  let chars = 0; // the text's length, without joining a long reply's chunks only to measure it
  for (const c of chunks) chars += c.length;
  yield {
    type: 'usage',
    input_tokens: reply.usage?.input_tokens ?? (await countItemsTokens(request.items, request.system, request.signal)),
    output_tokens: reply.usage?.output_tokens ?? Math.ceil(chars / 4),
  };
  yield { type: 'finish', reason: reply.tool_calls?.length ? 'tool-calls' : 'stop' };
}
