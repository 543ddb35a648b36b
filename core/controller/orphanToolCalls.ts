import type { HistoryItem, ToolCallItem, ToolResultItem } from '../history/HistoryItem.js';

/** Tool calls in `history` that have no result yet, in call order. */
export function orphanToolCalls(history: readonly HistoryItem[]): ToolCallItem[] {
  const answered = new Set<string>();
  for (const item of history) if (item.type === 'tool_result') answered.add(item.call_id);
  return history.filter((i): i is ToolCallItem => i.type === 'tool_call' && !answered.has(i.call_id));
}

/**
 * Synthetic results that close orphan tool calls, so the history stays valid for every provider
 * and the calls are never re-executed after a cancel (ARCHITECTURE §4.2).
 */
export function closeOrphans(history: readonly HistoryItem[], summary: string): ToolResultItem[] {
  return orphanToolCalls(history).map((call) => ({
    type: 'tool_result',
    call_id: call.call_id,
    summary,
    is_error: true,
  }));
}

export const INTERRUPTED_BY_USER = '[Interrupted by user]';
export const CANCELLED_BY_USER = '[Cancelled by user]';
export const INTERRUPT_NOTE = "[The previous turn was interrupted by the user. The user's next request follows.]";
export const STOPPED_MID_CALL = '[Interrupted: the pod stopped before this tool call finished]';
