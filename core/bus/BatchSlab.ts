/** Size of one slab: many batches of short deltas fit in it. */
const SLAB_BYTES = 64 * 1024;

/**
 * Buffers for encoded batches, cut from a shared slab instead of allocated one by one: an
 * `ArrayBuffer` of its own per batch (`allocUnsafeSlow`) was a sixth of a delta burst's cost.
 * A slice keeps its whole slab alive, so a connection that has to queue one (a client that is not
 * reading) keeps its own copy instead (core/server/ownBuffer.ts): only what sockets are writing
 * right now — at most their high-water mark each — holds slabs.
 */
export class BatchSlab {
  private slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
  private used = 0;

  /** The text's UTF-8 bytes. */
  encode(text: string): Buffer {
    const n = Buffer.byteLength(text);
    if (n > SLAB_BYTES / 4) {
      const own = Buffer.allocUnsafeSlow(n);
      own.write(text);
      return own;
    }
    if (this.used + n > SLAB_BYTES) {
      this.slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.used = 0;
    }
    const start = this.used;
    this.slab.write(text, start);
    this.used += n;
    return this.slab.subarray(start, start + n);
  }
}
