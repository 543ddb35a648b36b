import { PodClient, type UnknownEvent } from '../../client/PodClient.js';
import type { Event } from '../../core/protocol/index.js';
import type { Connection } from './AttachStore.js';

export interface PodLinkOptions {
  socketPath: string;
  /** A pod's network listener instead of the socket, and its bearer token. */
  url?: string;
  token?: string;
  /** Every event, as it arrives (for side effects that must not wait for a frame). */
  onEvent: (event: Event) => void;
  /** Events in order, in batches of at most one per `batchMs` (for rendering). */
  onEvents: (events: Event[]) => void;
  onConnection: (state: Connection) => void;
  /** Events this build cannot decode (a plugin's, e.g. permission asks), as they arrive. */
  onUnknownEvent?: (event: UnknownEvent) => void;
  batchMs?: number;
  clientName?: string;
}

const RETRY_FIRST_MS = 200;
const RETRY_MAX_MS = 2000;

/**
 * The attach client's connection to a pod: speaks v2, or v1 to a v1 pod (the listener is
 * registered before `hello`, so the alerts a pod replays on connect are not missed), asks for the history after
 * every (re)connect, and when the connection drops keeps trying to reconnect — a restarted pod
 * on the same socket is picked up — until {@link close}.
 */
export class PodLink {
  client?: PodClient;
  private closing = false;
  private batch: Event[] = [];
  private batchTimer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;

  constructor(private readonly opts: PodLinkOptions) {}

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** The first connection; rejects with a one-line error when the pod cannot be reached. */
  async open(): Promise<void> {
    this.opts.onConnection('connecting');
    await this.connect();
  }

  /** Asks for the history again (after `lagged`); the reply arrives as a `history` event. */
  resync(): void {
    void this.client?.request({ method: 'get_history' }).catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.retryTimer);
    this.flush();
    await this.client?.close();
  }

  private async connect(): Promise<void> {
    // The listener goes in before `hello`; a v1 pod (no welcome) is spoken to in v1 by PodClient.
    const client = await PodClient.connect({
      ...(this.opts.url !== undefined
        ? { url: this.opts.url, token: this.opts.token }
        : { socketPath: this.opts.socketPath }),
      protocol: 2,
      clientName: this.opts.clientName ?? 'yoi-attach',
      connectTimeoutMs: 3000,
      onEvent: (e) => this.receive(e),
      ...(this.opts.onUnknownEvent ? { onUnknownEvent: this.opts.onUnknownEvent } : {}),
    });
    if (this.closing) {
      void client.close();
      return;
    }
    this.client = client;
    this.opts.onConnection('connected');
    this.resync();
    void client.closed.then(() => {
      this.flush();
      if (!this.closing) this.retry(RETRY_FIRST_MS);
    });
  }

  private retry(delayMs: number): void {
    this.opts.onConnection('reconnecting');
    this.retryTimer = setTimeout(() => {
      this.connect().catch(() => {
        if (!this.closing) this.retry(Math.min(RETRY_MAX_MS, Math.round(delayMs * 1.5)));
      });
    }, delayMs);
  }

  private receive(event: Event): void {
    this.opts.onEvent(event);
    this.batch.push(event);
    this.batchTimer ??= setTimeout(() => this.flush(), this.opts.batchMs ?? 16);
  }

  private flush(): void {
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    if (this.batch.length === 0) return;
    const events = this.batch;
    this.batch = [];
    this.opts.onEvents(events);
  }
}
