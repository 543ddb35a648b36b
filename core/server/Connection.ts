import { LineReader } from '../protocol/index.js';
import type { ConnectionOptions, LagMarker, QueuedLine } from './ConnectionOptions.js';
import { SocketBacklog } from './SocketBacklog.js';
import type { Transport } from './Transport.js';
import { emptyArray } from '../util/emptyArray.js';
import { ownBuffer } from './ownBuffer.js';

export type { ConnectionOptions } from './ConnectionOptions.js';

/** Bytes the kernel/socket may hold before we keep lines in our own (bounded) queue. */
const SOCKET_HIGH_WATER = 64 * 1024;

/** Replies this small (acks, errors, welcome) are always queued once their request was admitted. */
export const SMALL_REPLY_BYTES = 4 * 1024;

/** Received lines waiting for their turn (characters) before the connection stops reading. */
const PENDING_INPUT_CHARS = 1024 * 1024;

/**
 * One client connection. Reading and writing are independent: a dedicated reader frames the
 * incoming bytes and hands each line on in order, and writes go through a bounded queue so a
 * stalled client never blocks the pod or other clients and never grows memory without bound.
 * On overflow the queued droppable events are replaced by a lag marker; it is not disconnected.
 * What cannot be dropped (replies, never-dropped events) counts against the same bound: past it
 * the client's requests are refused with an error (see `admits`, `sendReply`) and the
 * connection stops reading until the client reads, so nothing it sends grows the pod's memory.
 */
export class Connection {
  readonly id: number;
  /** 1 until the client negotiates v2 with `hello`. */
  version: 1 | 2 = 1;
  /** The `client` name the connection gave in `hello` (`yoi-cli`, `pod/<parent>`...). */
  client?: string;
  /** The `auth` it gave in `hello` (a child pod's secret). */
  credential?: string;
  /** Outbound lines; `head` is the next to write (avoids O(n) shifts on long queues). */
  private queue: (QueuedLine | LagMarker)[] = emptyArray();
  private head = 0;
  private queuedBytes = 0;
  /** The part of `queuedBytes` that is never dropped (replies, never-dropped broadcasts). */
  private fixedBytes = 0;
  /** Characters of received lines not yet handled. */
  private pendingInput = 0;
  private readPaused = false;
  private closed = false;
  private readonly reader: LineReader;
  private readonly written: SocketBacklog;
  /** Lines are handled one after another, in arrival order. */
  private chain: Promise<void> = Promise.resolve();
  private droppedTotal = 0;
  private corked = false;
  private readonly uncork = () => {
    this.corked = false;
    this.socket.uncork();
  };

  constructor(
    private readonly socket: Transport,
    private readonly opts: ConnectionOptions,
  ) {
    this.id = opts.id;
    this.written = new SocketBacklog(socket);
    this.reader = new LineReader({
      maxLineBytes: opts.maxLineBytes,
      budget: opts.inputBudget,
      onLine: (line, release) => this.enqueueLine(line, release),
      onError: (err) => opts.onLineError(this, err),
    });
    socket.on('data', (chunk: Buffer) => this.reader.push(chunk));
    // At the client's EOF: handle the lines already received (a client that writes a method and
    // closes at once still has it processed), flush their replies, then close our side too.
    socket.on('end', () => {
      this.reader.end();
      void this.chain.then(() => this.end());
    });
    socket.on('drain', () => this.flush());
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.closed = true;
      this.queue = [];
      this.head = 0;
      this.queuedBytes = 0;
      this.fixedBytes = 0;
      this.written.clear();
      this.reader.discard(); // an unfinished line gives its bytes back to the pod's budget
      opts.onClose(this);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Bytes waiting for this client, in our queue and in the socket. */
  get backlogBytes(): number {
    return this.queuedBytes + this.socket.writableLength;
  }

  /** The bound of this client's outbound queue. */
  get queueLimitBytes(): number {
    return this.opts.queueLimitBytes;
  }

  /** Events dropped for this client so far. */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** Resolves once every line received so far has been handled. */
  idle(): Promise<void> {
    return this.chain;
  }

  private enqueueLine(line: string, release: () => void): void {
    this.pendingInput += line.length;
    this.updateReading();
    const handle = () => {
      release();
      this.pendingInput -= line.length;
      this.updateReading();
      return this.opts.onLine(this, line);
    };
    // The chain never rejects: a rejection nobody handled would end the pod's process.
    this.chain = this.chain.then(handle).catch((error: unknown) => this.lineFailed(line, error));
  }

  private lineFailed(line: string, error: unknown): void {
    try {
      this.opts.onLineFailure(this, line, error);
    } catch {
      // Answering failed too (the connection is closing): the next lines are still handled.
    }
  }

  /** Bytes held for this client that cannot be dropped: our fixed queue and the socket's buffer. */
  get undroppableBytes(): number {
    return this.fixedBytes + this.written.undroppableBytes;
  }

  /**
   * Whether a new request from this client is served: not while what it has not read and
   * cannot be dropped fills its queue bound (its reply would only add to it). So a client
   * holds at most the bound plus one reply (a history larger than the bound still goes out).
   */
  admits(): boolean {
    return this.undroppableBytes < this.opts.queueLimitBytes;
  }

  /**
   * Queues a reply, unless the client's undroppable backlog reached its bound meanwhile (then
   * the caller sends an error instead). Small replies (acks, errors) always go: their request
   * was admitted, and its effect happened.
   */
  sendReply(buf: Buffer): boolean {
    if (this.closed) return true;
    if (buf.length > SMALL_REPLY_BYTES && !this.admits()) return false;
    this.send(buf, false);
    return true;
  }

  /**
   * Sends what this event-loop turn queued now rather than at its end: an `ack` must not wait
   * behind the microtasks of the run it started (in a fresh pod, ~10 ms of first-time code).
   */
  sendNow(): void {
    // The end-of-turn uncork still scheduled then finds nothing corked, or a later cork it ends
    // early: either way lines only leave sooner, in order.
    if (this.corked) this.uncork();
  }

  /** Stops reading while lines wait to be handled or the client does not read what it asked for. */
  private updateReading(): void {
    if (this.closed) return;
    const pause = this.pendingInput > PENDING_INPUT_CHARS || this.undroppableBytes >= this.opts.queueLimitBytes;
    if (pause === this.readPaused) return;
    this.readPaused = pause;
    if (pause) this.socket.pause();
    else this.socket.resume();
  }

  /**
   * Queues encoded lines (each with its `\n`): a reply, or broadcasts `from..to`. Droppable
   * lines may be replaced by a lag marker on overflow.
   */
  send(buf: Buffer, droppable = false, from?: number, to = from): void {
    if (this.closed) return;
    if (this.pending === 0 && this.socket.writableLength < SOCKET_HIGH_WATER) {
      // Everything sent during one turn of the event loop leaves in one writev, not a syscall per line.
      if (!this.corked) {
        this.corked = true;
        this.socket.cork();
        setImmediate(this.uncork);
      }
      this.written.write(buf, droppable);
      if (!droppable && buf.length >= SOCKET_HIGH_WATER) this.updateReading();
      return;
    }
    if (this.queuedBytes + buf.length > this.opts.queueLimitBytes) {
      this.dropDroppables();
      if (droppable && this.queuedBytes + buf.length > this.opts.queueLimitBytes) {
        this.markLost(from, to);
        return;
      }
    }
    // A queued line keeps memory of its own (see ownBuffer).
    this.queue.push({ buf: ownBuffer(buf), droppable, from, to });
    this.queuedBytes += buf.length;
    if (!droppable) {
      this.fixedBytes += buf.length;
      this.updateReading();
    }
  }

  /** Ends the connection after the queued lines were written (or after `graceMs`). */
  end(graceMs = 1000): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.socket.destroy(), graceMs);
      this.socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      const finish = () => (this.pending === 0 ? this.socket.end() : setTimeout(finish, 5));
      finish();
    });
  }

  destroy(): void {
    this.socket.destroy();
  }

  private get pending(): number {
    return this.queue.length - this.head;
  }

  private flush(): void {
    while (this.pending > 0 && this.socket.writableLength < SOCKET_HIGH_WATER && !this.closed) {
      const item = this.queue[this.head++];
      if (item.lag) {
        this.written.write(this.opts.renderLag(this, item.from, item.to, item.count), false);
      } else {
        this.queuedBytes -= item.buf.length;
        if (!item.droppable) this.fixedBytes -= item.buf.length;
        this.written.write(item.buf, item.droppable);
      }
    }
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    if (this.readPaused) this.updateReading();
  }

  /** Replaces every queued droppable line by lag markers, keeping everything else in order. */
  private dropDroppables(): void {
    const kept: (QueuedLine | LagMarker)[] = [];
    let bytes = 0;
    for (let i = this.head; i < this.queue.length; i++) {
      const item = this.queue[i];
      if (!item.lag && item.droppable) {
        addLost(kept, item.from, item.to);
        this.droppedTotal += count(item.from, item.to);
        continue;
      }
      if (!item.lag) bytes += item.buf.length;
      kept.push(item);
    }
    this.queue = kept;
    this.head = 0;
    this.queuedBytes = bytes;
    this.fixedBytes = bytes; // what is left is never dropped
  }

  private markLost(from: number | undefined, to: number | undefined): void {
    this.droppedTotal += count(from, to);
    if (this.pending === 0) {
      this.queue = [];
      this.head = 0;
    }
    addLost(this.queue, from, to);
  }
}

const count = (from: number | undefined, to: number | undefined) =>
  from === undefined || to === undefined ? 1 : to - from + 1;

/** Extends the lag marker at the end of `queue` when the lost range follows it, else adds one. */
function addLost(queue: (QueuedLine | LagMarker)[], from = 0, to = from): void {
  const last = queue[queue.length - 1];
  if (last?.lag && from === last.to + 1) {
    last.to = to;
    last.count += to - from + 1;
  } else {
    queue.push({ lag: true, from, to, count: to - from + 1 });
  }
}
