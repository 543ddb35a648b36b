import type { HistoryItem } from '../history/HistoryItem.js';

/**
 * A quick token estimate (about 4 characters per token) for providers that report no usage
 * and for offline providers. Cheap enough to run before every request.
 */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function estimateItemsTokens(items: readonly HistoryItem[], system = ''): number {
  let chars = system.length;
  for (const item of items) {
    if (item.type === 'message') for (const p of item.content) chars += p.text.length + 4;
    else if (item.type === 'tool_call') chars += item.name.length + item.arguments.length + 8;
    else chars += item.summary.length + (item.content?.length ?? 0) + 8;
  }
  return Math.ceil(chars / 4);
}
