/**
 * Failures per key (a remote address) as token buckets: `burst` failures at once, one more
 * every `refillMs`. The map is bounded (`maxKeys`, least recently seen evicted), so a flood of
 * addresses costs a bounded amount of memory; an evicted address starts afresh.
 */
export class FailureLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly opts: { burst: number; refillMs: number; maxKeys: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `key` may still try (has failures left). */
  allows(key: string): boolean {
    return (this.current(key)?.tokens ?? this.opts.burst) >= 1;
  }

  /** Records one failure of `key`. */
  fail(key: string): void {
    const bucket = this.current(key) ?? { tokens: this.opts.burst, at: this.now() };
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    this.buckets.delete(key); // re-inserted last: the map's order is recency
    this.buckets.set(key, bucket);
    while (this.buckets.size > this.opts.maxKeys) this.buckets.delete(this.buckets.keys().next().value as string);
  }

  /** Milliseconds until `key` may try again (0 when it may now). */
  retryAfterMs(key: string): number {
    const bucket = this.current(key);
    if (!bucket || bucket.tokens >= 1) return 0;
    return Math.max(0, Math.ceil((1 - bucket.tokens) * this.opts.refillMs - (this.now() - bucket.at)));
  }

  get size(): number {
    return this.buckets.size;
  }

  private current(key: string): { tokens: number; at: number } | undefined {
    const bucket = this.buckets.get(key);
    if (!bucket) return undefined;
    const t = this.now();
    const earned = (t - bucket.at) / this.opts.refillMs;
    if (earned > 0) {
      bucket.tokens = Math.min(this.opts.burst, bucket.tokens + earned);
      bucket.at = t;
    }
    if (bucket.tokens >= this.opts.burst) {
      this.buckets.delete(key); // back to full: nothing worth keeping
      return undefined;
    }
    return bucket;
  }
}
