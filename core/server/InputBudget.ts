import type { ByteBudget } from '../protocol/index.js';

/**
 * The pod-wide budget for buffered input (`limits.inputBufferBytes`): the bytes of unfinished
 * lines of every connection, and of finished ones until their handling starts. Each connection
 * is bounded by `limits.maxLineBytes` already; this bounds their sum, so many clients holding
 * long unterminated lines cannot take the pod's memory. A line that does not fit is dropped
 * with an error to its own connection; lines already buffered by others are not touched.
 */
export class InputBudget implements ByteBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  /** Bytes taken now. */
  get usedBytes(): number {
    return this.used;
  }

  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
  }
}
