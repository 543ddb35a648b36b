import { SMALL_REPLY_BYTES, type Connection } from '../server/Connection.js';
import { ExtensionEvent, encodeExtensionEvent } from '../protocol/ExtensionEvent.js';
import { replyOverBudget, replyRefused, replyUnencodable } from '../server/backlogErrors.js';
import { putDeltaPieces } from '../protocol/encode.js';
import { BatchSlab } from './BatchSlab.js';
import { downgradeToV1, encodeEvent, type Alert, type Event, type EventName } from '../protocol/index.js';
import { emptyArray } from '../util/emptyArray.js';

/** What the bus carries: a protocol event, or one a plugin defined. */
type AnyEvent = Event | ExtensionEvent;

/** Alerts kept for replay to each new connection (ARCHITECTURE §4.3). */
export const MAX_BUFFERED_ALERTS = 512;

/** Events a slow client never loses; everything else may be replaced by a lag marker. */
const NEVER_DROPPED = new Set<EventName>([
  'alert',
  'compact_start',
  'compact_done',
  'compact_failed',
  'run_end',
  'error',
  'shutdown',
  'status',
]);

/** Droppable broadcasts are sent in batches of at most this many events (or one event-loop turn). */
const MAX_BATCH = 512;

/**
 * The pod's one event bus. Broadcasts get a gap-free per-pod `seq`. Droppable events (deltas and
 * the like) are batched for one event-loop turn, encoded once per protocol version into one
 * buffer shared by every client of that version (v1 clients get the downgraded form) and
 * queued on each connection as one write. Anything else — a never-dropped event, a reply, a new
 * connection — first flushes the batch, so every client sees events in `seq` order. Replies go
 * to one connection only.
 */
export class EventBus {
  private seq = 0;
  /** `limits.replyBufferBytes`: what all clients may hold unread before large replies are refused. */
  replyBudgetBytes = Infinity;
  private readonly connections = new Set<Connection>();
  private readonly alerts: Alert[] = [];
  private readonly listeners = new Set<(event: Event) => void>();
  /** Batched broadcasts; their seqs are consecutive from `batchFrom` (see `broadcast`). */
  private batch: AnyEvent[] = emptyArray();
  private batchFrom = 0;
  /**
   * Called before anything is delivered (the pod flushes its session log here), so a client
   * never sees an event before the log entries appended ahead of it are written.
   */
  beforeDeliver: () => void = () => undefined;
  private readonly flushSoon = () => this.flush();
  private readonly slab = new BatchSlab();

  /** The seq of the last broadcast (0 before any). */
  get lastSeq(): number {
    return this.seq;
  }

  get size(): number {
    return this.connections.size;
  }

  /** Adds a connection and replays the buffered alerts to it before any live event. */
  attach(conn: Connection): void {
    this.flush();
    for (const alert of this.alerts) conn.send(this.encodeFor(conn, { event: 'alert', data: alert }), false);
    this.connections.add(conn);
  }

  detach(conn: Connection): void {
    this.connections.delete(conn);
  }

  get clients(): ReadonlySet<Connection> {
    return this.connections;
  }

  /** In-process observers (tests, the pod tree reporter). Errors thrown by them are ignored. */
  subscribe(listener: (event: Event) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  broadcast(event: AnyEvent): number {
    const seq = ++this.seq;
    if (event.event === 'alert' && !(event instanceof ExtensionEvent)) {
      this.alerts.push((event as Extract<Event, { event: 'alert' }>).data);
      if (this.alerts.length > MAX_BUFFERED_ALERTS) this.alerts.shift();
    }
    if (event instanceof ExtensionEvent ? !event.droppable : NEVER_DROPPED.has(event.event)) {
      // Flushing first keeps every batch a run of consecutive seqs.
      this.flush();
      this.deliver([event], seq, false);
    } else {
      if (this.batch.length === 0) {
        this.batchFrom = seq;
        setImmediate(this.flushSoon);
      }
      this.batch.push(event);
      if (this.batch.length >= MAX_BATCH) this.flush();
    }
    if (this.listeners.size > 0 && !(event instanceof ExtensionEvent)) {
      const stamped = { ...event, seq } as Event;
      for (const l of this.listeners) {
        try {
          l(stamped);
        } catch {
          // an observer must not break the broadcast
        }
      }
    }
    return seq;
  }

  /** Writes what is queued for every client now, not at the end of this event-loop turn. */
  sendNow(): void {
    this.flush();
    for (const conn of this.connections) conn.sendNow();
  }

  /** Writes out the batched broadcasts now. */
  flush(): void {
    if (this.batch.length === 0) return;
    const events = this.batch;
    this.batch = emptyArray();
    this.deliver(events, this.batchFrom, true);
  }

  /**
   * Sends an event to one connection only (replies: history, welcome, ack, errors). A reply that
   * would take a client that does not read past its queue bound is replaced by an error.
   */
  reply(conn: Connection, event: AnyEvent): void {
    this.flush();
    this.beforeDeliver();
    // A history can be large: while clients hold the pod's budget it is refused before it is
    // encoded, so a flood of requests costs neither the memory nor the time of encoding each.
    let held = event.event === 'history' ? this.heldReplyBytes() : undefined;
    if (held !== undefined && held >= this.replyBudgetBytes) {
      conn.sendReply(this.encodeFor(conn, replyOverBudget(event, held, this.replyBudgetBytes)));
      return;
    }
    let buf: Buffer;
    try {
      buf = this.encodeFor(conn, event);
    } catch (error) {
      // One reply that cannot be encoded is that client's error, not the pod's end.
      conn.sendReply(this.encodeFor(conn, replyUnencodable(event, error)));
      return;
    }
    if (buf.length > SMALL_REPLY_BYTES) {
      held ??= this.heldReplyBytes();
      if (held > 0 && held + buf.length > this.replyBudgetBytes) {
        conn.sendReply(this.encodeFor(conn, replyOverBudget(event, held, this.replyBudgetBytes)));
        return;
      }
    }
    if (buf.length === 0 || conn.sendReply(buf)) return;
    conn.sendReply(this.encodeFor(conn, replyRefused(conn, event, buf.length)));
  }

  /** What all clients hold unread that cannot be dropped (replies, never-dropped events). */
  private heldReplyBytes(): number {
    let held = 0;
    for (const conn of this.connections) held += conn.undroppableBytes;
    return held;
  }

  /** Encodes consecutive broadcasts once per protocol version in use and queues them everywhere. */
  private deliver(events: AnyEvent[], from: number, droppable: boolean): void {
    this.beforeDeliver();
    const to = from + events.length - 1;
    let v2: Buffer | undefined;
    let v1: Buffer | undefined;
    for (const conn of this.connections) {
      if (conn.version === 2) {
        v2 ??= this.slab.encode(encodeEach(events, from, (e, seq) => v2Text([e], seq), v2Text));
        conn.send(v2, droppable, from, to);
      } else {
        v1 ??= this.slab.encode(
          encodeEach(
            events,
            from,
            (e) => v1Text(e),
            (all) => all.map(v1Text).join(''),
          ),
        );
        if (v1.length > 0) conn.send(v1, droppable, from, to);
      }
    }
  }

  private encodeFor(conn: Connection, event: AnyEvent): Buffer {
    return conn.version === 2 ? Buffer.from(`${encodeAny(event)}\n`) : encodeV1(event);
  }
}

/**
 * Encodes a batch whole; if that fails (an event longer than a JS string can be), event by event,
 * each one that fails replaced by an alert with its seq: the others, and the run's terminal
 * event behind them, still reach the clients.
 */
function encodeEach(
  events: readonly AnyEvent[],
  from: number,
  one: (event: AnyEvent, seq: number) => string,
  all: (events: readonly AnyEvent[], from: number) => string,
): string {
  try {
    return all(events, from);
  } catch {
    return events
      .map((event, i) => {
        try {
          return one(event, from + i);
        } catch (error) {
          const message = `${event.event} (seq ${from + i}) not sent: it could not be encoded (${error instanceof Error ? error.message : String(error)})`;
          const alert: Event = {
            event: 'alert',
            data: { level: 'error', source: 'pod', message, timestamp_ms: Date.now() },
          };
          return one(alert, from + i);
        }
      })
      .join('');
  }
}

/**
 * The v2 lines of consecutive broadcasts from seq `from`, joined once from their pieces (not a
 * rope grown per line, flattened again by the buffer's write; deltas without a string per line).
 */
function v2Text(events: readonly AnyEvent[], from: number): string {
  const pieces = new Array<unknown>(events.length * 5);
  let n = 0;
  for (let i = 0; i < events.length; i++) {
    const event = events[i];
    const next = event instanceof ExtensionEvent ? n : putDeltaPieces(event, from + i, pieces, n);
    if (next !== n) {
      n = next;
      continue;
    }
    pieces[n++] = encodeAny(event, from + i);
    pieces[n++] = '\n';
  }
  pieces.length = n;
  return pieces.join('');
}

function encodeAny(event: AnyEvent, seq?: number): string {
  return event instanceof ExtensionEvent ? encodeExtensionEvent(event, seq) : encodeEvent(event, seq);
}

/** The v1 lines an event becomes (possibly none): an extension event becomes its alert, if it has one. */
function v1Text(event: AnyEvent): string {
  if (event instanceof ExtensionEvent) {
    if (event.v1Alert === undefined) return '';
    return `${encodeEvent({ event: 'alert', data: { level: 'warn', source: 'pod', message: event.v1Alert, timestamp_ms: Date.now() } })}\n`;
  }
  return downgradeToV1(event)
    .map((e) => `${encodeEvent(e)}\n`)
    .join('');
}

function encodeV1(event: AnyEvent): Buffer {
  return Buffer.from(v1Text(event));
}
