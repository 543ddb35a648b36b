/** The copies made so far, by the slice they copy: every connection that queues one batch shares one. */
const copies = new WeakMap<Buffer, Buffer>();

/**
 * `buf` itself when its memory is its own, else a copy whose memory is. A connection keeps what it
 * queues for a client that is not reading this way: a broadcast is a slice of the bus's slab (see
 * BatchSlab), a small reply one of Node's buffer pool, and a queued slice would pin its whole
 * slab beyond what the queue bound counts. The bus hands one slice to every connection, so the
 * copy is made once and shared (a thousand stalled clients hold one copy of a batch, not a
 * thousand); it lives while a queue holds it or the slice itself is alive.
 */
export function ownBuffer(buf: Buffer): Buffer {
  if (buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength) return buf;
  let copy = copies.get(buf);
  if (copy === undefined) {
    copy = Buffer.allocUnsafeSlow(buf.length);
    buf.copy(copy);
    copies.set(buf, copy);
  }
  return copy;
}
