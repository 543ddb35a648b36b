import { isDeepStrictEqual } from 'node:util';

/** One session of a chain, as `yoi history --chain` prints it. */
export interface ChainSession {
  session_id: string;
  compacted_from?: { session_id: string; at: number };
  /** The session's whole history (for a compacted one: summary, retained tail, then its own items). */
  items: unknown[];
  /** Items the session started with (summary + retained tail), 0 for a first session. */
  startItems: number;
  /** Said in the session's header when its hash chain is not intact. */
  chain?: string;
}

/**
 * How many of a compacted session's first items repeat the end of the session it came from
 * (the retained tail): the longest suffix of its start items that ends the previous history.
 */
export function retainedCount(previous: readonly unknown[], start: readonly unknown[]): number {
  for (let k = Math.min(previous.length, start.length); k > 0; k--) {
    let same = true;
    for (let i = 0; i < k && same; i++)
      same = isDeepStrictEqual(start[start.length - k + i], previous[previous.length - k + i]);
    if (same) return k;
  }
  return 0;
}

/**
 * Text lines for a chain, oldest session first: each session's items under a header, without
 * repeating the items a compaction carried over verbatim.
 */
export function formatChain(
  chain: readonly ChainSession[],
  formatItem: (item: unknown) => string,
  missing?: string,
): string[] {
  const lines: string[] = [];
  if (missing) lines.push(`── (session ${missing} is no longer on disk) ──`);
  chain.forEach((s, i) => {
    let items = s.items;
    const mark = s.chain ? ` [hash chain ${s.chain}]` : '';
    if (i === 0 || !s.compacted_from) {
      lines.push(`── session ${s.session_id}${mark} ──`);
    } else {
      const at = new Date(s.compacted_from.at).toISOString();
      const kept = retainedCount(chain[i - 1].items, s.items.slice(0, s.startItems));
      lines.push(
        `── compacted at ${at} into session ${s.session_id}${kept ? ` (${kept} recent item(s) kept, not repeated)` : ''}${mark} ──`,
      );
      items = [...s.items.slice(0, s.startItems - kept), ...s.items.slice(s.startItems)];
    }
    for (const item of items) lines.push(formatItem(item));
  });
  return lines;
}
