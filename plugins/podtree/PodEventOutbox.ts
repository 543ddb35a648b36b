import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeMethod, LineReader, type PodEvent, podEventKind, socketTrustProblem } from '../../core/api.js';

export interface PodEventOutboxOptions {
  /** The parent's socket (`--callback`). */
  socketPath: string;
  /**
   * Where to connect instead of `socketPath`; asked before each new connection, `retrying` after
   * a failed one (the parent may have died and the pod been handed to another).
   */
  target?: (retrying: boolean) => Promise<string>;
  /** The `hello` client name (`pod/<child>`). */
  clientName: string;
  /** Presented in `hello` as `auth`: the secret the parent checks every report against. */
  auth?: string;
  connectTimeoutMs?: number;
  /** How long to wait for the parent's `ack` of one report before trying again. */
  ackTimeoutMs?: number;
  /** How long one report is retried before it is dropped (the parent may be gone for good). */
  retryForMs?: number;
  /** Reports kept while the parent is unreachable; beyond this the oldest is dropped. */
  maxQueued?: number;
  /** An idle connection is closed after this long (the parent broadcasts everything to it). */
  idleCloseMs?: number;
  /** Where failures are logged (the child's log); default stderr. */
  log?: (line: string) => void;
}

interface Pending {
  readonly event: PodEvent;
  readonly id: string;
  readonly onlyIf?: () => boolean;
  firstTry?: number;
}

/** The parent answered a report with an `error` that retrying will not change. */
class Refused extends Error {}

/**
 * Delivers a child's reports to its parent, at least once while both live: each report is a
 * v2 `pod_event` with its own `request_id`, retried with backoff on a fresh connection until
 * the parent acknowledges it (the parent applies a repeated id once), for at most `retryForMs`.
 * One outbox per parent and one report in flight at a time, so reports arrive in the order
 * they were sent. `send()` never blocks: the child's controller only enqueues. A parent that is
 * gone costs the child a log line per dropped report, nothing more.
 */
export class PodEventOutbox {
  private readonly queue: Pending[] = [];
  private readonly prefix = randomBytes(6).toString('hex');
  private nextId = 0;
  private running?: Promise<void>;
  private link?: AckLink;
  private idleTimer?: NodeJS.Timeout;
  private closed = false;
  private readonly o: Required<Omit<PodEventOutboxOptions, 'target' | 'auth'>> & Pick<PodEventOutboxOptions, 'target' | 'auth'>;
  private retrying = false;
  private draining = false;
  private lastTarget: string;

  constructor(options: PodEventOutboxOptions) {
    this.o = {
      connectTimeoutMs: 5000, ackTimeoutMs: 10_000, retryForMs: 60_000, maxQueued: 1000, idleCloseMs: 1000,
      log: (line) => process.stderr.write(`yoi: ${line}\n`),
      ...options,
    };
    this.lastTarget = options.socketPath;
  }

  /** Reports queued or in flight. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Queues a report; returns its request id. `onlyIf` is asked when the report is about to go,
   * once connected (after `target` was resolved): false drops it.
   */
  send(event: PodEvent, { onlyIf }: { onlyIf?: () => boolean } = {}): string {
    const id = `${this.prefix}-${++this.nextId}`;
    if (this.closed) return id;
    if (this.queue.length >= this.o.maxQueued) {
      const dropped = this.queue.splice(1, 1)[0]; // not the one in flight
      if (dropped) this.o.log(`dropped the ${podEventKind(dropped.event)} report to ${this.lastTarget}: ${this.o.maxQueued} reports are waiting`);
    }
    this.queue.push({ event, id, onlyIf });
    this.running ??= this.run().finally(() => (this.running = undefined));
    return id;
  }

  /**
   * Waits until every queued report is delivered or dropped (true), or `timeoutMs` passed (false).
   * `giveUpIfGone` (the pod is stopping): a parent nobody listens for is not waited for.
   */
  async drain(timeoutMs: number, { giveUpIfGone = false } = {}): Promise<boolean> {
    if (!this.running) return this.queue.length === 0;
    this.draining ||= giveUpIfGone;
    const timer = sleep(timeoutMs, 'timeout' as const, { ref: false });
    return (await Promise.race([this.running.then(() => 'done' as const), timer])) === 'done' && this.queue.length === 0;
  }

  /** Stops delivering: what is still queued is dropped. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    clearTimeout(this.idleTimer);
    this.link?.close();
    this.link = undefined;
  }

  private async run(): Promise<void> {
    clearTimeout(this.idleTimer);
    let attempt = 0;
    while (this.queue.length > 0 && !this.closed) {
      const item = this.queue[0];
      item.firstTry ??= Date.now();
      try {
        if (this.link?.broken) this.link = undefined; // the parent closed it (stopped, died) since the last report
        if (!this.link) {
          this.lastTarget = (await this.o.target?.(this.retrying).catch(() => undefined)) ?? this.o.socketPath;
          this.link = await AckLink.open(this.lastTarget, this.o.clientName, this.o.connectTimeoutMs, this.o.auth);
        }
        if (item.onlyIf && !item.onlyIf()) {
          this.queue.shift();
          continue;
        }
        await this.link.deliver(item.id, item.event, this.o.ackTimeoutMs);
        this.queue.shift();
        attempt = 0;
        this.retrying = false;
      } catch (e) {
        this.link?.close();
        this.link = undefined;
        if (this.closed) return;
        // When the pod is stopping, nobody listening twice in a row (the second time at a target
        // looked up again) means the parent is gone: no point in waiting for it.
        const gone = this.draining && this.retrying && ['ENOENT', 'ECONNREFUSED'].includes((e as NodeJS.ErrnoException).code ?? '');
        this.retrying = true;
        const what = `the ${podEventKind(item.event)} report to ${this.lastTarget}`;
        if (e instanceof Refused || gone || Date.now() - item.firstTry >= this.o.retryForMs) {
          this.o.log(`dropped ${what}: ${(e as Error).message}`);
          this.queue.shift();
          attempt = 0;
          continue;
        }
        await sleep(Math.min(2000, 100 * 2 ** attempt++), undefined, { ref: false });
      }
    }
    if (this.link) this.idleTimer = setTimeout(() => this.closeIdle(), this.o.idleCloseMs).unref();
  }

  private closeIdle(): void {
    if (this.running) return;
    this.link?.close();
    this.link = undefined;
  }
}

/** How long a parent may take to answer `hello` before it is taken for a v1 (Rust yoi) pod. */
const WELCOME_WAIT_MS = 2000;

/**
 * One connection to the parent: `hello` (v2), then reports answered by `ack` or `error`. A v1
 * parent (the original) answers `hello` with an error, or not at all, and never acks: it gets
 * each report once, fire-and-forget, as the original protocol had it.
 */
class AckLink {
  private readonly waiting = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  private failure?: Error;
  private v2?: boolean;
  private readonly versionKnown: Promise<void>;
  private learnVersion!: (v2: boolean) => void;

  private constructor(private readonly socket: net.Socket) {
    this.versionKnown = new Promise((resolve) => {
      const timer = setTimeout(() => this.learnVersion(false), WELCOME_WAIT_MS);
      timer.unref();
      this.learnVersion = (v2) => {
        clearTimeout(timer);
        this.v2 ??= v2;
        resolve();
      };
    });
    const reader = new LineReader({ onLine: (line) => this.onLine(line), onError: () => undefined });
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
    socket.on('error', (e) => this.fail(e));
    socket.on('close', () => this.fail(new Error('the parent closed the connection')));
  }

  static open(socketPath: string, clientName: string, timeoutMs: number, auth?: string): Promise<AckLink> {
    // Reports go only to the user's own socket (a swapped-in one is another user's).
    const untrusted = socketTrustProblem(socketPath);
    if (untrusted instanceof Error) return Promise.reject(untrusted);
    return new Promise((resolve, reject) => {
      const socket = net.connect(socketPath);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no connection within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        // No need to wait for `welcome`: the parent handles one connection's lines in order.
        socket.write(`${JSON.stringify({ method: 'hello', params: { protocol_version: 2, client: clientName, ...(auth ? { auth } : {}) } })}\n`);
        resolve(new AckLink(socket));
      });
    });
  }

  async deliver(id: string, event: PodEvent, timeoutMs: number): Promise<void> {
    if (this.failure) throw this.failure;
    let line: string;
    try {
      line = `${encodeMethod({ method: 'pod_event', params: event, request_id: id })}\n`;
    } catch (e) {
      throw new Refused((e as Error).message);
    }
    await this.versionKnown;
    if (this.failure) throw this.failure;
    if (!this.v2) {
      this.socket.write(line); // a v1 parent never acks: once, as the original delivered
      return;
    }
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`no acknowledgement within ${timeoutMs} ms`));
      }, timeoutMs);
      const settle = (fn: () => void) => () => {
        clearTimeout(timer);
        this.waiting.delete(id);
        fn();
      };
      this.waiting.set(id, { resolve: settle(resolve), reject: (e) => settle(() => reject(e))() });
      this.socket.write(line);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  get broken(): boolean {
    return this.failure !== undefined;
  }

  private onLine(line: string): void {
    if (this.v2 === undefined) {
      if (line.includes('"event":"welcome"')) this.learnVersion(true);
      // The original answers an unknown method with an error naming it.
      else if (line.includes('"event":"error"') && line.includes('hello')) this.learnVersion(false);
    }
    // Only replies carry a request_id; the parent's broadcasts are skipped without parsing.
    if (!line.includes('"request_id"')) return;
    let reply: { event?: string; request_id?: string; data?: { code?: string; message?: string } };
    try {
      reply = JSON.parse(line);
    } catch {
      return;
    }
    const waiter = reply.request_id !== undefined ? this.waiting.get(reply.request_id) : undefined;
    if (!waiter) return;
    if (reply.event === 'ack') waiter.resolve();
    else if (reply.event === 'error') {
      const message = `${reply.data?.code}: ${reply.data?.message}`;
      // `internal` is what a stopping parent answers: worth another try.
      waiter.reject(reply.data?.code === 'internal' ? new Error(message) : new Refused(message));
    }
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const w of [...this.waiting.values()]) w.reject(this.failure);
  }
}
