import net from 'node:net';
import { YoiError } from '../errors/YoiError.js';
import { EVENT_NAMES, LineReader, decodeEvent, encodeMethod, parseLine, type ErrorCode, type Event, type EventOf, type Method } from '../protocol/index.js';

/** The pod refused a request: `code` is the pod's error code (`already_running`, ...). */
export class PodRequestError extends YoiError {
  constructor(
    readonly podCode: ErrorCode,
    message: string,
  ) {
    super('YOI_ERR_REQUEST', message);
  }
}

export interface PodClientOptions {
  socketPath: string;
  /** Sent in `hello` (`name/version`). */
  clientName?: string;
  /** 2 (default) negotiates the v2 extensions; 1 speaks plain v1. */
  protocol?: 1 | 2;
  connectTimeoutMs?: number;
  /** Default timeout of `request()`. */
  requestTimeoutMs?: number;
}

type MethodInput = Method extends infer M ? (M extends Method ? Omit<M, 'request_id'> : never) : never;
type Reply = EventOf<'ack'> | EventOf<'welcome'> | EventOf<'history'> | EventOf<'completions'>;

/**
 * An event the protocol does not define: one a plugin added (`permission_request`), as it came.
 * Its `data` is unchecked: validate it with the plugin's schema before use.
 */
export interface ExtensionEventLine {
  readonly event: string;
  readonly data?: unknown;
  readonly seq?: number;
  readonly request_id?: string;
}

const KNOWN_EVENTS: ReadonlySet<string> = new Set(EVENT_NAMES);

interface Pending {
  resolve: (event: Reply | ExtensionEventLine) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * A typed connection to a pod. `request()` tags a method with a `request_id` and resolves with
 * the pod's reply (`ack`, `history`, ...) or rejects with its `error`; every request times out;
 * when the connection closes, every pending request rejects. Every event is also handed to the
 * `onEvent` listeners, in order.
 */
export class PodClient {
  welcome?: EventOf<'welcome'>['data'];
  readonly closed: Promise<void>;
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(event: Event) => void>();
  private readonly extensionListeners = new Set<(event: ExtensionEventLine) => void>();
  private nextId = 1;
  private isClosed = false;

  private constructor(
    private readonly socket: net.Socket,
    private readonly opts: PodClientOptions,
  ) {
    const reader = new LineReader({
      onLine: (line) => {
        const parsed = parseLine(line);
        if (!parsed.ok) return;
        const decoded = decodeEvent(parsed.value);
        if (decoded.ok) this.dispatch(decoded.value);
        else this.dispatchExtension(parsed.value); // else an event of a newer pod that we cannot read: skipped
      },
      onError: () => undefined,
    });
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
    this.closed = new Promise((resolve) => {
      socket.on('close', () => {
        reader.end();
        this.isClosed = true;
        for (const [id, p] of this.pending) {
          clearTimeout(p.timer);
          p.reject(new YoiError('YOI_ERR_CONNECTION', 'the pod closed the connection before answering'));
          this.pending.delete(id);
        }
        resolve();
      });
    });
    socket.on('error', () => undefined); // 'close' follows
  }

  /** Connects and (for protocol 2) negotiates with `hello` → `welcome`. */
  static async connect(opts: PodClientOptions): Promise<PodClient> {
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect(opts.socketPath);
      const timer = setTimeout(() => {
        s.destroy();
        reject(new YoiError('YOI_ERR_TIMEOUT', `no answer from ${opts.socketPath} within ${opts.connectTimeoutMs ?? 5000} ms`));
      }, opts.connectTimeoutMs ?? 5000);
      s.once('connect', () => {
        clearTimeout(timer);
        resolve(s);
      });
      s.once('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        const why = e.code === 'ENOENT' || e.code === 'ECONNREFUSED' ? 'no pod is listening there' : e.message;
        reject(new YoiError('YOI_ERR_CONNECTION', `cannot reach a pod at ${opts.socketPath}: ${why}`));
      });
    });
    const client = new PodClient(socket, opts);
    if ((opts.protocol ?? 2) === 2) {
      const welcome = await client.request({ method: 'hello', params: { protocol_version: 2, client: opts.clientName ?? 'yoi' } });
      if (welcome.event === 'welcome') client.welcome = welcome.data;
    }
    return client;
  }

  get connected(): boolean {
    return !this.isClosed;
  }

  /** Adds a listener for every event; returns a function that removes it. */
  onEvent(listener: (event: Event) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds a listener for the events plugins define (see {@link ExtensionEventLine}); returns a function that removes it. */
  onExtensionEvent(listener: (event: ExtensionEventLine) => void): () => void {
    this.extensionListeners.add(listener);
    return () => this.extensionListeners.delete(listener);
  }

  /** Sends a method with a fresh `request_id`; resolves with the reply, rejects with the pod's error. */
  request(method: MethodInput, timeoutMs = this.opts.requestTimeoutMs ?? 10_000): Promise<Reply> {
    return this.requestLine(method.method, (id) => encodeMethod({ ...method, request_id: id } as Method), timeoutMs) as Promise<Reply>;
  }

  /**
   * Sends a method a plugin added to the protocol (`permission_reply`); resolves with `ack` or
   * the plugin's reply event, rejects with the pod's error.
   */
  requestExtension(method: string, params?: unknown, timeoutMs = this.opts.requestTimeoutMs ?? 10_000): Promise<EventOf<'ack'> | ExtensionEventLine> {
    const line = (id: string) => JSON.stringify({ method, request_id: id, ...(params !== undefined ? { params } : {}) });
    return this.requestLine(method, line, timeoutMs) as Promise<EventOf<'ack'> | ExtensionEventLine>;
  }

  private requestLine(name: string, encode: (id: string) => string, timeoutMs: number): Promise<Reply | ExtensionEventLine> {
    if (this.isClosed) return Promise.reject(new YoiError('YOI_ERR_CONNECTION', 'the connection to the pod is closed'));
    const id = `r${this.nextId++}`;
    return new Promise<Reply | ExtensionEventLine>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new YoiError('YOI_ERR_TIMEOUT', `the pod did not answer \`${name}\` within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.socket.write(`${encode(id)}\n`);
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

  private dispatch(event: Event): void {
    const id = event.request_id;
    const p = id !== undefined ? this.pending.get(id) : undefined;
    if (p && id !== undefined) {
      this.pending.delete(id);
      clearTimeout(p.timer);
      if (event.event === 'error') p.reject(new PodRequestError(event.data.code, `${event.data.code}: ${event.data.message}`));
      else p.resolve(event as Reply);
    }
    for (const l of this.listeners) l(event);
  }

  /** An object line naming an event the protocol does not define. */
  private dispatchExtension(value: unknown): void {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return;
    const { event, data, seq, request_id: id } = value as Record<string, unknown>;
    if (typeof event !== 'string' || KNOWN_EVENTS.has(event)) return;
    const line: ExtensionEventLine = {
      event, ...(data !== undefined ? { data } : {}), ...(typeof seq === 'number' ? { seq } : {}), ...(typeof id === 'string' ? { request_id: id } : {}),
    };
    const p = typeof id === 'string' ? this.pending.get(id) : undefined;
    if (p && typeof id === 'string') {
      this.pending.delete(id);
      clearTimeout(p.timer);
      p.resolve(line);
    }
    for (const l of this.extensionListeners) l(line);
  }
}
