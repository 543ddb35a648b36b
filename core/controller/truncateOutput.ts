/** Marker appended to tool output that was cut to fit the limit. */
export const truncationMarker = (dropped: number) => `\n\n[truncated: ${dropped} bytes dropped, refine your query]`;

/**
 * Cuts `text` to at most `limit` UTF-8 bytes, marker included, at a character boundary.
 * Returns the text unchanged when it fits.
 */
export function truncateOutput(
  text: string,
  limit: number,
): { text: string; truncated: boolean; before: number; after: number } {
  // Measured without encoding: most outputs fit, and a copy of each would be garbage at once.
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= limit) return { text, truncated: false, before: bytes, after: bytes };
  const buf = Buffer.from(text, 'utf8');
  // The marker's own length depends on the number it prints; reserve room for the widest case.
  const reserve = Buffer.byteLength(truncationMarker(buf.length));
  let cut = Math.max(0, limit - reserve);
  while (cut > 0 && (buf[cut] & 0xc0) === 0x80) cut--; // never split a multi-byte character
  const head = buf.subarray(0, cut).toString('utf8');
  const out = head + truncationMarker(buf.length - cut);
  return { text: out, truncated: true, before: buf.length, after: Buffer.byteLength(out) };
}
