import { performance } from 'node:perf_hooks';

/** Least time between the starts of two listings of one kind. */
export const REFRESH_INTERVAL_MS = 1000;
/** Longest a tool's result waits for the listing of a change the server announced before it. */
export const REFRESH_WAIT_MS = 2000;

/**
 * The refreshes of one list of one connection after `list_changed`. One listing at a time, and
 * at most one started per REFRESH_INTERVAL_MS: notifications meanwhile ask for one more, started
 * once the interval has passed (trailing, so the last change is always listed). Listings back to
 * back on every notification kept a pod at 95% CPU under a server flooding them.
 */
export class ListRefresh {
  private running?: Promise<void>;
  private timer?: NodeJS.Timeout;
  /** A notification came that no listing started since has seen. */
  private due = false;
  private lastStart = -Infinity;
  /** Waiting for the listing that will see the notifications so far (started when due). */
  private waiters: (() => void)[] = [];

  constructor(
    /** Lists once; never rejects. */
    private readonly list: () => Promise<void>,
    /** False once the connection is gone: nothing more is listed. */
    private readonly live: () => boolean,
  ) {}

  /** Nothing listed nor waiting to be. */
  get idle(): boolean {
    return !this.due && !this.running;
  }

  /** A `list_changed` arrived. */
  changed(): void {
    if (!this.live()) return;
    this.due = true;
    this.next();
  }

  /**
   * Resolves once the notifications received so far are listed: with the listing under way, or
   * the one due next. Later notifications do not move it (a server repeating them cannot keep a
   * caller waiting).
   */
  settled(): Promise<void> {
    if (this.due) return new Promise((resolve) => this.waiters.push(resolve));
    return this.running ?? Promise.resolve();
  }

  private next(): void {
    if (this.running || this.timer || !this.due) return;
    if (!this.live()) {
      this.due = false;
      for (const resolve of this.waiters.splice(0)) resolve();
      return;
    }
    const wait = this.lastStart + REFRESH_INTERVAL_MS - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.next();
      }, wait).unref();
      return;
    }
    this.due = false;
    this.lastStart = performance.now();
    const seen = this.waiters.splice(0);
    this.running = this.list().finally(() => {
      this.running = undefined;
      for (const resolve of seen) resolve();
      this.next();
    });
  }
}
