/** `{"request_id":"…"` or `{"method":"…","request_id":"…"` at the start of a line (the encoder's orders). */
const HEAD = /^\s*\{\s*(?:"method"\s*:\s*"(?:[^"\\]|\\.)*"\s*,\s*)?"request_id"\s*:\s*("(?:[^"\\]|\\.)*")/;

/**
 * The `request_id` of a line known only by its first bytes (the rest was discarded as too long),
 * when it comes first or right after `method`, as clients write it: so the error for the line
 * reaches the request that is waiting for it instead of leaving it to time out.
 */
export function requestIdInHead(head: string): string | undefined {
  const m = HEAD.exec(head);
  if (!m) return undefined;
  try {
    const id = JSON.parse(m[1]) as unknown;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}
