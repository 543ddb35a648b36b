import { YoiError } from '../core/errors/YoiError.js';
import {
  DEFAULT_MAX_LINE_BYTES,
  LineReader,
  EVENT_DATA,
  decodeEventLine,
  encodeMethod,
  type Event,
  type EventOf,
  type Method,
  type PodStatus,
  oneLineError,
} from '../core/protocol/index.js';
import { openPodLink } from './openPodLink.js';
import type { ClientLink, MethodInput, PodClientOptions, UnknownEvent, WelcomeData } from './PodClientOptions.js';
import { toUnknownEvent } from './toUnknownEvent.js';
import { waitForEvent } from './waitForEvent.js';
import { PodRequestError, V1Emulation, type Reply } from './V1Emulation.js';
import { isV1HelloRefusal } from './v1Replies.js';

export { PodRequestError, isSynthetic } from './V1Emulation.js';
export type { MethodInput, PodClientOptions, UnknownEvent, WelcomeData } from './PodClientOptions.js';

interface Pending {
  resolve: (event: Reply | UnknownEvent) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  /** The method asked for. */
  method: string;
  /** A plugin's method (`requestExtension`): its reply may be an event this build does not know. */
  extension: boolean;
}

/** The bound after which a pod that has not answered `hello` is taken for a v1 pod (the original). */
export const WELCOME_TIMEOUT_MS = 2000;
const MiB = 1024 * 1024;
/**
 * The longest line a client takes from its pod. The pod's input lines are bounded by 16 MiB,
 * but a history holds many of them (a session with a few large pastes): a client holds one.
 */
const MAX_REPLY_LINE_BYTES = 256 * MiB;
/** A pod's greeting is small: a longer line before `hello` is decided ends the connection attempt. */
const MAX_HELLO_LINE_BYTES = DEFAULT_MAX_LINE_BYTES;

/**
 * A typed connection to a pod. `request()` tags a method with a `request_id` and resolves with
 * the pod's reply (`ack`, `history`, ...) or rejects with its `error`; every request times out;
 * when the connection closes, every pending request rejects. Every event is also handed to the
 * `onEvent` listeners, in order.
 *
 * A pod that answers `hello` with an error (the original's unknown method) or not at all
 * within `WELCOME_TIMEOUT_MS` speaks v1 only: the client carries on in v1 behind the same
 * API (`V1Emulation`); `protocol` says which one is spoken. A silent pod may just be hung: its
 * errors say it did not answer rather than that it speaks v1.
 */
export class PodClient {
  welcome?: WelcomeData;
  /** 2 once the pod answered `hello` with `welcome`; 1 for a v1 pod or a client that asked for v1. */
  protocol: 1 | 2 = 1;
  readonly closed: Promise<void>;
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(event: Event) => void>();
  private readonly unknownListeners = new Set<(event: UnknownEvent) => void>();
  private nextId = 1;
  private isClosed = false;
  private v2Status?: PodStatus;
  /** Set when the client asked for v2 and the pod speaks v1 only. */
  private v1?: V1Emulation;
  /** The `hello` still unanswered: a late refusal is swallowed, a late `welcome` upgrades to v2. */
  private hello?: { id?: string; answer: (welcome?: WelcomeData, refused?: boolean) => void };
  /** Fails `connect()` while `hello` is undecided (a line too long to be any pod's greeting). */
  private failNegotiation?: (error: Error) => void;
  /** Why the client ended the connection itself (a line too long that answered nobody). */
  closedBecause?: YoiError;

  private constructor(
    private readonly socket: ClientLink,
    private readonly opts: PodClientOptions,
  ) {
    const reader = new LineReader({
      onLine: (line) => {
        const decoded = decodeEventLine(line);
        if (decoded.ok) this.dispatch(decoded.value);
        else if (this.unknownListeners.size > 0 || this.pending.size > 0) this.dispatchUnknown(line, decoded.error);
      },
      maxLineBytes: opts.maxReplyBytes ?? MAX_REPLY_LINE_BYTES,
      // A dropped line may be the answer someone waits for (a long session's history): they
      // fail now, saying why, instead of timing out as if the pod had not answered.
      onError: (error) => {
        if (error.kind !== 'line_too_long') return;
        const tooLarge = () =>
          new YoiError(
            'YOI_ERR_REPLY_TOO_LARGE',
            `a reply from the pod was over ${error.limit / MiB} MiB, more than a client holds`,
          );
        this.failNegotiation?.(tooLarge());
        // An event nobody asked for is lost to every listener (a `yoi send` would wait on for
        // the rest of a run it cannot show): the connection ends, saying why.
        if (this.pending.size === 0) {
          this.closedBecause = tooLarge();
          socket.destroy();
        }
        for (const p of this.pending.values()) {
          clearTimeout(p.timer);
          p.reject(tooLarge());
        }
        this.pending.clear();
      },
    });
    socket.on('data', (chunk: Buffer) => {
      reader.push(chunk);
      if (this.failNegotiation && reader.bufferedBytes > MAX_HELLO_LINE_BYTES)
        this.failNegotiation(
          new YoiError(
            'YOI_ERR_REPLY_TOO_LARGE',
            `the pod sent a line over ${MAX_HELLO_LINE_BYTES / MiB} MiB before answering \`hello\`, more than a greeting: it is not a yoi pod, or a broken one`,
          ),
        );
    });
    let tooLarge = false;
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        reader.end();
        this.isClosed = true;
        const gone = () =>
          this.closedBecause ??
          (tooLarge
            ? new YoiError(
                'YOI_ERR_REPLY_TOO_LARGE',
                `the pod sent a message over ${(opts.maxReplyBytes ?? MAX_REPLY_LINE_BYTES) / MiB} MiB, more than this client takes`,
              )
            : new YoiError('YOI_ERR_CONNECTION', 'the pod closed the connection before answering'));
        for (const p of this.pending.values()) {
          clearTimeout(p.timer);
          p.reject(gone());
        }
        this.pending.clear();
        this.v1?.closed(gone);
        resolve();
      });
    });
    // 'close' follows; a WebSocket frame over the limit is said as such, not as a hang-up.
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') tooLarge = true;
    });
  }

  /** Connects and (for protocol 2) negotiates with `hello` → `welcome`, or settles on v1. */
  static async connect(opts: PodClientOptions): Promise<PodClient> {
    const socket = await openPodLink(opts);
    const client = new PodClient(socket, opts);
    if (opts.onEvent) client.onEvent(opts.onEvent);
    if (opts.onUnknownEvent) client.onUnknownEvent(opts.onUnknownEvent);
    if ((opts.protocol ?? 2) === 2) {
      try {
        await client.negotiate(opts.welcomeTimeoutMs ?? WELCOME_TIMEOUT_MS);
      } catch (e) {
        socket.destroy();
        throw e;
      }
    }
    return client;
  }

  get connected(): boolean {
    return !this.isClosed;
  }

  /** The pod's state as last reported (`welcome`, `status`; for a v1 pod derived from its events). */
  get status(): PodStatus | undefined {
    return this.protocol === 2 ? this.v2Status : this.v1?.status;
  }

  /** Adds a listener for every event; returns a function that removes it. */
  onEvent(listener: (event: Event) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds a listener for events this build cannot decode; returns a function that removes it. */
  onUnknownEvent(listener: (event: UnknownEvent) => void): () => void {
    this.unknownListeners.add(listener);
    return () => this.unknownListeners.delete(listener);
  }

  /**
   * Sends a method; resolves with the reply, rejects with the pod's error or after `timeoutMs`.
   * `requestId` replaces the client's own id (a report retried under the id it was first sent with).
   */
  request(method: MethodInput, timeoutMs = this.opts.requestTimeoutMs ?? 10_000, requestId?: string): Promise<Reply> {
    if (this.isClosed) return Promise.reject(new YoiError('YOI_ERR_CONNECTION', 'the connection to the pod is closed'));
    // A caller's id goes on a v1 line too: a v1 pod ignores it, a log of the line shows it.
    if (this.v1 && this.protocol === 1)
      return this.v1.request(
        { ...method, ...(requestId !== undefined ? { request_id: requestId } : {}) } as Method,
        timeoutMs,
      );
    return this.requestLine(
      method.method,
      (id) => encodeMethod({ ...method, request_id: id } as Method),
      timeoutMs,
      requestId,
    ) as Promise<Reply>;
  }

  /**
   * Sends a method a plugin added to the protocol (`permission_reply`); resolves with the pod's
   * `ack` or the plugin's reply event (unchecked data: validate it with the plugin's schema),
   * rejects with the pod's error (v2 only).
   */
  requestExtension(
    method: string,
    params?: unknown,
    timeoutMs = this.opts.requestTimeoutMs ?? 10_000,
  ): Promise<EventOf<'ack'> | UnknownEvent> {
    if (this.isClosed) return Promise.reject(new YoiError('YOI_ERR_CONNECTION', 'the connection to the pod is closed'));
    // A v1-only pod (the original) has no plugin methods; a v2 pod takes them from any client.
    if (this.v1 && this.protocol === 1) return Promise.reject(this.v1.unsupported(method));
    const line = (id: string) =>
      JSON.stringify({ method, request_id: id, ...(params !== undefined ? { params } : {}) });
    return this.requestLine(method, line, timeoutMs, undefined, true) as Promise<EventOf<'ack'> | UnknownEvent>;
  }

  private requestLine(
    name: string,
    encode: (id: string) => string,
    timeoutMs: number,
    requestId?: string,
    extension = false,
  ): Promise<Reply | UnknownEvent> {
    const id = requestId ?? `r${this.nextId++}`;
    if (this.pending.has(id))
      return Promise.reject(new YoiError('YOI_ERR_USAGE', `request id ${id} is already waiting for an answer`));
    let line: string;
    try {
      line = `${encode(id)}\n`;
    } catch (e) {
      return Promise.reject(e);
    }
    return new Promise<Reply | UnknownEvent>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new YoiError('YOI_ERR_TIMEOUT', `the pod did not answer \`${name}\` within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as Pending['resolve'], reject, timer, method: name, extension });
      this.socket.write(line);
    });
  }

  /** Sends a method without waiting for anything. */
  send(method: MethodInput): void {
    if (!this.isClosed) this.socket.write(`${encodeMethod(method as Method)}\n`);
  }

  /** Resolves with the first event matching `predicate` (or rejects on close/timeout). */
  waitFor<T extends Event>(predicate: (e: Event) => e is T, timeoutMs?: number): Promise<T>;
  waitFor(predicate: (e: Event) => boolean, timeoutMs?: number): Promise<Event>;
  waitFor(predicate: (e: Event) => boolean, timeoutMs = 30_000): Promise<Event> {
    return waitForEvent((l) => this.onEvent(l), this.closed, predicate, timeoutMs);
  }

  close(): Promise<void> {
    this.socket.end();
    const timer = setTimeout(() => this.socket.destroy(), 1000);
    return this.closed.then(() => clearTimeout(timer));
  }

  private negotiate(timeoutMs: number): Promise<void> {
    const id = this.opts.bareHello ? undefined : `r${this.nextId++}`;
    return new Promise((resolve, reject) => {
      let decided = false;
      const decide = (welcome?: WelcomeData, refused = false) => {
        clearTimeout(timer);
        if (welcome) {
          this.protocol = 2;
          this.welcome = welcome;
          this.v2Status = welcome.status;
        }
        // A late refusal confirms what the silence only suggested.
        if (refused && this.v1) this.v1.unansweredHelloMs = undefined;
        if (decided) return;
        decided = true;
        this.failNegotiation = undefined;
        if (!welcome) {
          this.v1 = new V1Emulation(
            (line) => this.socket.write(line),
            (e) => this.emit(e),
          );
          if (!refused) this.v1.unansweredHelloMs = timeoutMs;
          this.v1.start();
        }
        resolve();
      };
      this.failNegotiation = (error) => {
        clearTimeout(timer);
        decided = true;
        this.failNegotiation = undefined;
        this.hello = undefined;
        reject(error); // connect() destroys the socket
      };
      // setImmediate: a welcome read in the same loop turn as the timer firing still counts.
      const timer = setTimeout(() => setImmediate(() => decide()), timeoutMs);
      this.hello = { id, answer: decide };
      void this.closed.then(() => {
        clearTimeout(timer);
        reject(new YoiError('YOI_ERR_CONNECTION', 'the pod closed the connection before answering `hello`'));
      });
      const params = {
        protocol_version: 2,
        client: this.opts.clientName ?? 'yoi',
        ...(this.opts.auth !== undefined ? { auth: this.opts.auth } : {}),
      };
      this.socket.write(
        `${encodeMethod({ method: 'hello', params, ...(id !== undefined ? { request_id: id } : {}) })}\n`,
      );
    });
  }

  private dispatch(event: Event): void {
    const hello = this.hello;
    if (hello && event.event === 'welcome' && (event.request_id === hello.id || hello.id === undefined)) {
      this.hello = undefined;
      hello.answer(event.data);
    } else if (
      hello &&
      ((hello.id !== undefined && event.request_id === hello.id && event.event === 'error') || isV1HelloRefusal(event))
    ) {
      this.hello = undefined;
      hello.answer(undefined, true);
      return; // the answer to this client's own hello is nobody else's business
    }
    // A v1 pod broadcasts its refusal of every client's hello: noise for everyone else.
    if (this.v1 && isV1HelloRefusal(event)) return;
    if (event.event === 'status') this.v2Status = event.data.status;
    const id = event.request_id;
    const p = id !== undefined ? this.pending.get(id) : undefined;
    if (p && id !== undefined) {
      this.pending.delete(id);
      clearTimeout(p.timer);
      if (event.event === 'error')
        p.reject(new PodRequestError(event.data.code, `${event.data.code}: ${event.data.message}`));
      else p.resolve(event as Reply);
    }
    if (this.v1) this.v1.dispatch(event, this.protocol === 1);
    else this.emit(event);
  }

  private emit(event: Event): void {
    for (const l of this.listeners) l(event);
  }

  private dispatchUnknown(line: string, why: string): void {
    const event = toUnknownEvent(line);
    if (!event) return;
    const p = event.request_id !== undefined ? this.pending.get(event.request_id) : undefined;
    if (p && event.request_id !== undefined) {
      this.pending.delete(event.request_id);
      clearTimeout(p.timer);
      // A plugin's reply to requestExtension may be any event of the plugin's; a core event that
      // failed its schema, or an unknown event answering a core method, is no answer a caller
      // could read (`yoi history` printed a string's characters one per line).
      if (Object.hasOwn(EVENT_DATA, event.event))
        p.reject(new YoiError('YOI_ERR_PROTOCOL', `the pod sent a malformed \`${event.event}\` event: ${why}`));
      else if (!p.extension)
        p.reject(
          new YoiError(
            'YOI_ERR_PROTOCOL',
            `the pod answered \`${p.method}\` with \`${oneLineError(event.event)}\`, an event this client does not know`,
          ),
        );
      else p.resolve(event);
    }
    for (const l of this.unknownListeners) l(event);
  }
}
