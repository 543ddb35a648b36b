import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeMethod, PodClient, PodRequestError, type PodEvent, podEventKind } from '../../core/api.js';

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
  private link?: PodClient;
  private idleTimer?: NodeJS.Timeout;
  private closed = false;
  private readonly o: Required<Omit<PodEventOutboxOptions, 'target' | 'auth'>> &
    Pick<PodEventOutboxOptions, 'target' | 'auth'>;
  private retrying = false;
  private draining = false;
  private lastTarget: string;

  constructor(options: PodEventOutboxOptions) {
    this.o = {
      connectTimeoutMs: 5000,
      ackTimeoutMs: 10_000,
      retryForMs: 60_000,
      maxQueued: 1000,
      idleCloseMs: 1000,
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
  send(
    event: PodEvent,
    { onlyIf, id = `${this.prefix}-${++this.nextId}` }: { onlyIf?: () => boolean; id?: string } = {},
  ): string {
    if (this.closed) return id;
    if (this.queue.length >= this.o.maxQueued) {
      const dropped = this.queue.splice(1, 1)[0]; // not the one in flight
      if (dropped)
        this.o.log(
          `dropped the ${podEventKind(dropped.event)} report to ${this.lastTarget}: ${this.o.maxQueued} reports are waiting`,
        );
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
    return (
      (await Promise.race([this.running.then(() => 'done' as const), timer])) === 'done' && this.queue.length === 0
    );
  }

  /** Stops delivering: what is still queued is dropped. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    clearTimeout(this.idleTimer);
    void this.link?.close();
    this.link = undefined;
  }

  private async run(): Promise<void> {
    clearTimeout(this.idleTimer);
    let attempt = 0;
    while (this.queue.length > 0 && !this.closed) {
      const item = this.queue[0];
      item.firstTry ??= Date.now();
      try {
        if (this.link && !this.link.connected) this.link = undefined; // the parent closed it (stopped, died) since the last report
        if (!this.link) {
          this.lastTarget = (await this.o.target?.(this.retrying).catch(() => undefined)) ?? this.o.socketPath;
          this.link = await this.connect(this.lastTarget);
        }
        if (item.onlyIf && !item.onlyIf()) {
          this.queue.shift();
          continue;
        }
        await this.deliver(this.link, item);
        this.queue.shift();
        attempt = 0;
        this.retrying = false;
      } catch (e) {
        void this.link?.close();
        this.link = undefined;
        if (this.closed) return;
        // When the pod is stopping, nobody listening twice in a row (the second time at a target
        // looked up again) means the parent is gone: no point in waiting for it.
        const errno = errnoOf(e);
        const gone = this.draining && this.retrying && ['ENOENT', 'ECONNREFUSED'].includes(errno ?? '');
        this.retrying = true;
        const what = `the ${podEventKind(item.event)} report to ${this.lastTarget}`;
        if (e instanceof Refused || gone || Date.now() - item.firstTry >= this.o.retryForMs) {
          this.o.log(
            `dropped ${what}: ${(e as Error).message}${errno && !(e as Error).message.includes(errno) ? ` (${errno})` : ''}`,
          );
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
    void this.link?.close();
    this.link = undefined;
  }

  /**
   * The protocol client, `hello` v2 as the child (with its secret). A parent that answers with
   * the original's unknown-method error, or not at all within 2 s, is a v1 pod (see `deliver`).
   * Only the user's own socket is dialled (PodClient checks it: a swapped-in one is another user's).
   */
  private connect(socketPath: string): Promise<PodClient> {
    return PodClient.connect({
      socketPath,
      clientName: this.o.clientName,
      bareHello: true,
      connectTimeoutMs: this.o.connectTimeoutMs,
      requestTimeoutMs: this.o.ackTimeoutMs,
      ...(this.o.auth ? { auth: this.o.auth } : {}),
    });
  }

  /**
   * One report under its own request id, answered by `ack` (or an `error`: `internal` is what a
   * stopping parent answers, worth another try; anything else will not change). A v1 parent never
   * acks: it gets the report once, fire-and-forget, as the original protocol had it.
   */
  private async deliver(link: PodClient, item: Pending): Promise<void> {
    const method = { method: 'pod_event', params: item.event } as const;
    try {
      encodeMethod({ ...method, request_id: item.id });
    } catch (e) {
      throw new Refused((e as Error).message);
    }
    try {
      await link.request(method, this.o.ackTimeoutMs, item.id);
    } catch (e) {
      if (e instanceof PodRequestError && e.podCode !== 'internal') throw new Refused(e.message);
      throw e;
    }
  }
}

/** The errno code behind a connection failure (PodClient keeps it as the cause). */
function errnoOf(e: unknown): string | undefined {
  const own = (e as NodeJS.ErrnoException | undefined)?.code;
  if (own && /^E[A-Z]+$/.test(own)) return own;
  const cause = (e as { cause?: NodeJS.ErrnoException } | undefined)?.cause?.code;
  return cause && /^E[A-Z]+$/.test(cause) ? cause : undefined;
}
