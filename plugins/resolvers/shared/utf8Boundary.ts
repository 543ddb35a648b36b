/**
 * The largest length ≤ `limit` at which `bytes` can be cut without splitting a UTF-8
 * sequence: only `bytes[0, limit)` is looked at, and a sequence whose lead byte is there but
 * whose continuation bytes would be cut off is dropped whole. Invalid input stays invalid but
 * is never split mid-sequence.
 */
export function utf8Boundary(bytes: Uint8Array, limit: number = bytes.length): number {
  const end = Math.max(0, Math.min(limit, bytes.length));
  // A sequence is at most 4 bytes: its lead byte is within the last 4 kept bytes.
  for (let i = end - 1; i >= 0 && i >= end - 4; i--) {
    const byte = bytes[i];
    if ((byte & 0xc0) === 0x80) continue; // continuation byte: keep looking for the lead
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return i + length <= end ? end : i;
  }
  return end;
}
