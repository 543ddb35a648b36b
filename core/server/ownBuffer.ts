/**
 * `buf` itself when its memory is its own, else a copy whose memory is. A connection keeps what it
 * queues for a client that is not reading this way: a broadcast is a slice of the bus's slab (see
 * BatchSlab), a small reply one of Node's buffer pool, and a queued slice would pin its whole
 * slab beyond what the queue bound counts.
 */
export function ownBuffer(buf: Buffer): Buffer {
  if (buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength) return buf;
  const copy = Buffer.allocUnsafeSlow(buf.length);
  buf.copy(copy);
  return copy;
}
