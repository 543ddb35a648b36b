import type { HistoryItem } from '../../core/api.js';

/**
 * Where to cut a history into [summarised | kept verbatim]. A cut is *safe* where no tool call
 * is open, so a call and its result always land on the same side (calls still waiting for
 * their result, in a paused run, stay in the tail). The cut is the earliest safe one whose
 * tail fits in `retainedTokens`; at least one item is summarised, and when the whole history
 * fits, only the last safe unit (the latest exchange) is kept. Returns 0 when nothing can be
 * summarised.
 */
export function splitForRetained(
  items: readonly HistoryItem[],
  retainedTokens: number,
  countItem: (item: HistoryItem) => number,
): number {
  const n = items.length;
  const safe = new Array<boolean>(n + 1).fill(false);
  const open = new Set<string>();
  safe[0] = true;
  items.forEach((item, i) => {
    if (item.type === 'tool_call') open.add(item.call_id);
    else if (item.type === 'tool_result') open.delete(item.call_id);
    safe[i + 1] = open.size === 0;
  });
  const suffix = new Array<number>(n + 1).fill(0);
  for (let i = n - 1; i >= 0; i--) suffix[i] = suffix[i + 1] + countItem(items[i]);

  if (suffix[0] > retainedTokens) {
    for (let i = 1; i <= n; i++) if (safe[i] && suffix[i] <= retainedTokens) return i;
  }
  for (let i = n - 1; i >= 1; i--) if (safe[i]) return i;
  return safe[n] ? n : 0;
}
