import { YoiError } from '../errors/YoiError.js';
import { checkOwnSocket } from '../pod/trustedPath.js';
import { LineReader, decodeEventLine, encodeMethod, parseLine, type Event, type EventOf, type Method, type PodStatus } from '../protocol/index.js';
import { openSocket } from './openSocket.js';
import { openWebSocket } from './openWebSocket.js';
import { PodRequestError, V1Emulation, type Reply } from './V1Emulation.js';
import { isV1HelloRefusal } from './v1Replies.js';

export { PodRequestError, isSynthetic } from './V1Emulation.js';

/** An event this build cannot read (a newer pod's, a plugin's): its name, raw data and line. */
export interface UnknownEvent {
  event: string;
  data?: unknown;
  seq?: number;
  request_id?: string;
  line: string;
}

/** What a client talks over: the Unix socket, or a WebSocket (whole lines written, bytes read). */
interface ClientLink {
  write(data: string): unknown;
  end(): unknown;
  destroy(): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export interface PodClientOptions {
  /** The pod's Unix socket; or `url`. */
  socketPath?: string;
  /** A pod's network listener, `ws://HOST:PORT` or `wss://HOST:PORT` (instead of `socketPath`). */
  url?: string;
  /** The bearer token `url` needs. */
  token?: string;
  /** CA certificate(s) to trust for a `wss://` url (besides the system's and NODE_EXTRA_CA_CERTS). */
  ca?: string | Buffer;
  /** Sent in `hello` (`name/version`). */
  clientName?: string;
  /** Sent in `hello` as `auth`: a credential the pod checks (a child pod's report secret). */
  auth?: string;
  /** 2 (default) negotiates the v2 extensions, falling back to v1 for a v1 pod; 1 speaks plain v1. */
  protocol?: 1 | 2;
  connectTimeoutMs?: number;
  /** Default timeout of `request()`. */
  requestTimeoutMs?: number;
  /** How long to wait for `welcome` before taking the pod for a v1 pod. */
  welcomeTimeoutMs?: number;
  /**
   * Send `hello` without a `request_id` and take the first `welcome` as its answer (the line a
   * child's report outbox has always sent its parent).
   */
  bareHello?: boolean;
  /** A listener registered before `hello`, so it also sees what the pod sends on connect (replayed alerts). */
  onEvent?: (event: Event) => void;
  /** Likewise for events this build cannot decode (a plugin's: the asks a pod re-sends on connect). */
  onUnknownEvent?: (event: UnknownEvent) => void;
}

/** A method line as `request()` and `send()` take it (the client adds the `request_id`). */
export type MethodInput = Method extends infer M ? (M extends Method ? Omit<M, 'request_id'> : never) : never;
/** The v2 `welcome` a pod greeted this client with. */
export type WelcomeData = EventOf<'welcome'>['data'];

interface Pending {
  resolve: (event: Reply | UnknownEvent) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** The bound after which a pod that has not answered `hello` is taken for a v1 pod (the original). */
export const WELCOME_TIMEOUT_MS = 2000;

/**
 * A typed connection to a pod. `request()` tags a method with a `request_id` and resolves with
 * the pod's reply (`ack`, `history`, ...) or rejects with its `error`; every request times out;
 * when the connection closes, every pending request rejects. Every event is also handed to the
 * `onEvent` listeners, in order.
 *
 * A pod that answers `hello` with an error (the original's unknown method) or not at all
 * within `WELCOME_TIMEOUT_MS` speaks v1 only: the client carries on in v1 behind the same
 * API (`V1Emulation`); `protocol` says which one is spoken.
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
  private hello?: { id?: string; answer: (welcome?: WelcomeData) => void };

  private constructor(
    private readonly socket: ClientLink,
    private readonly opts: PodClientOptions,
  ) {
    const reader = new LineReader({
      onLine: (line) => {
        const decoded = decodeEventLine(line);
        if (decoded.ok) this.dispatch(decoded.value);
        else if (this.unknownListeners.size > 0 || this.pending.size > 0) this.dispatchUnknown(line);
      },
      onError: () => undefined,
    });
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        reader.end();
        this.isClosed = true;
        const gone = () => new YoiError('YOI_ERR_CONNECTION', 'the pod closed the connection before answering');
        for (const p of this.pending.values()) {
          clearTimeout(p.timer);
          p.reject(gone());
        }
        this.pending.clear();
        this.v1?.closed(gone);
        resolve();
      });
    });
    socket.on('error', () => undefined); // 'close' follows
  }

  /** Connects and (for protocol 2) negotiates with `hello` → `welcome`, or settles on v1. */
  static async connect(opts: PodClientOptions): Promise<PodClient> {
    const socket = await PodClient.open(opts);
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

  /** The transport the address names: a WebSocket for `url`, else the Unix socket. */
  private static async open(opts: PodClientOptions): Promise<ClientLink> {
    const timeoutMs = opts.connectTimeoutMs ?? 5000;
    if (opts.url !== undefined) return openWebSocket(opts.url, { token: opts.token, ca: opts.ca, timeoutMs });
    if (opts.socketPath === undefined) throw new YoiError('YOI_ERR_CONNECTION', 'cannot reach a pod: neither a socket path nor a URL was given');
    // Only the user's own socket, in a directory nobody else controls (no SO_PEERCRED in Node).
    if (!checkOwnSocket(opts.socketPath)) {
      const cause = Object.assign(new Error(`ENOENT: no socket at ${opts.socketPath}`), { code: 'ENOENT' });
      throw new YoiError('YOI_ERR_CONNECTION', `cannot reach a pod at ${opts.socketPath}: no pod is listening there`, { cause });
    }
    return openSocket(opts.socketPath, timeoutMs);
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
    if (this.v1 && this.protocol === 1) return this.v1.request({ ...method, ...(requestId !== undefined ? { request_id: requestId } : {}) } as Method, timeoutMs);
    return this.requestLine(method.method, (id) => encodeMethod({ ...method, request_id: id } as Method), timeoutMs, requestId) as Promise<Reply>;
  }

  /**
   * Sends a method a plugin added to the protocol (`permission_reply`); resolves with the pod's
   * `ack` or the plugin's reply event (unchecked data: validate it with the plugin's schema),
   * rejects with the pod's error (v2 only).
   */
  requestExtension(method: string, params?: unknown, timeoutMs = this.opts.requestTimeoutMs ?? 10_000): Promise<EventOf<'ack'> | UnknownEvent> {
    if (this.isClosed) return Promise.reject(new YoiError('YOI_ERR_CONNECTION', 'the connection to the pod is closed'));
    // A v1-only pod (the original) has no plugin methods; a v2 pod takes them from any client.
    if (this.v1 && this.protocol === 1) return Promise.reject(new YoiError('YOI_ERR_UNSUPPORTED', `the pod speaks protocol v1, which has no \`${method}\``));
    const line = (id: string) => JSON.stringify({ method, request_id: id, ...(params !== undefined ? { params } : {}) });
    return this.requestLine(method, line, timeoutMs) as Promise<EventOf<'ack'> | UnknownEvent>;
  }

  private requestLine(name: string, encode: (id: string) => string, timeoutMs: number, requestId?: string): Promise<Reply | UnknownEvent> {
    const id = requestId ?? `r${this.nextId++}`;
    if (this.pending.has(id)) return Promise.reject(new YoiError('YOI_ERR_USAGE', `request id ${id} is already waiting for an answer`));
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
      this.pending.set(id, { resolve: resolve as Pending['resolve'], reject, timer });
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
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        off();
        fn();
      };
      const timer = setTimeout(() => settle(() => reject(new YoiError('YOI_ERR_TIMEOUT', `no matching event within ${timeoutMs} ms`))), timeoutMs);
      const off = this.onEvent((e) => {
        if (predicate(e)) settle(() => resolve(e));
      });
      void this.closed.then(() => settle(() => reject(new YoiError('YOI_ERR_CONNECTION', 'the connection to the pod closed'))));
    });
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
      const decide = (welcome?: WelcomeData) => {
        clearTimeout(timer);
        if (welcome) {
          this.protocol = 2;
          this.welcome = welcome;
          this.v2Status = welcome.status;
        }
        if (decided) return;
        decided = true;
        if (!welcome) {
          this.v1 = new V1Emulation((line) => this.socket.write(line), (e) => this.emit(e));
          this.v1.start();
        }
        resolve();
      };
      // setImmediate: a welcome read in the same loop turn as the timer firing still counts.
      const timer = setTimeout(() => setImmediate(() => decide()), timeoutMs);
      this.hello = { id, answer: decide };
      void this.closed.then(() => {
        clearTimeout(timer);
        reject(new YoiError('YOI_ERR_CONNECTION', 'the pod closed the connection before answering `hello`'));
      });
      const params = { protocol_version: 2, client: this.opts.clientName ?? 'yoi', ...(this.opts.auth !== undefined ? { auth: this.opts.auth } : {}) };
      this.socket.write(`${encodeMethod({ method: 'hello', params, ...(id !== undefined ? { request_id: id } : {}) })}\n`);
    });
  }

  private dispatch(event: Event): void {
    const hello = this.hello;
    if (hello && event.event === 'welcome' && (event.request_id === hello.id || hello.id === undefined)) {
      this.hello = undefined;
      hello.answer(event.data);
    } else if (hello && ((hello.id !== undefined && event.request_id === hello.id && event.event === 'error') || isV1HelloRefusal(event))) {
      this.hello = undefined;
      hello.answer();
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
      if (event.event === 'error') p.reject(new PodRequestError(event.data.code, `${event.data.code}: ${event.data.message}`));
      else p.resolve(event as Reply);
    }
    if (this.v1) this.v1.dispatch(event, this.protocol === 1);
    else this.emit(event);
  }

  private emit(event: Event): void {
    for (const l of this.listeners) l(event);
  }

  private dispatchUnknown(line: string): void {
    const parsed = parseLine(line);
    const value = parsed.ok ? parsed.value : undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
    const raw = value as Record<string, unknown>;
    if (typeof raw.event !== 'string') return;
    const event: UnknownEvent = { event: raw.event, data: raw.data, line };
    if (typeof raw.seq === 'number') event.seq = raw.seq;
    if (typeof raw.request_id === 'string') event.request_id = raw.request_id;
    // A plugin's reply to requestExtension.
    const p = event.request_id !== undefined ? this.pending.get(event.request_id) : undefined;
    if (p && event.request_id !== undefined) {
      this.pending.delete(event.request_id);
      clearTimeout(p.timer);
      p.resolve(event);
    }
    for (const l of this.unknownListeners) l(event);
  }
}
