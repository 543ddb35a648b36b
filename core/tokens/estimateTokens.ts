import type { HistoryItem } from '../history/HistoryItem.js';

/** Tokens a message costs beyond its text (role and separators), as chat formats count them. */
const MESSAGE_OVERHEAD = 4;

type Count = (text: string) => number;

let count: Count | undefined;
let loading: Promise<void> | undefined;
/** Per-item counts: history items are immutable once committed, so each is tokenized once. */
let cache = new WeakMap<HistoryItem, number>();

/**
 * Loads the tokenizer (gpt-tokenizer, o200k_base) once per process. Imported lazily: its
 * tables take ~0.2 s to load, which a CLI command must not pay. Until it is loaded, estimates
 * fall back to ~4 characters per token; the pod awaits this before its first LLM request.
 */
export function loadTokenizer(): Promise<void> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => {
    // Text like `<|endoftext|>` in a user's file is ordinary text here, not a special token.
    const options = { disallowedSpecial: new Set<string>() };
    count = (text) => m.countTokens(text, options);
    cache = new WeakMap();
  });
  return loading;
}

/** True once `loadTokenizer()` has finished. */
export function tokenizerLoaded(): boolean {
  return count !== undefined;
}

/** Tokens of a text: exact for o200k_base once the tokenizer is loaded, else about chars/4. */
export function estimateTextTokens(text: string): number {
  if (text === '') return 0;
  return count ? count(text) : Math.ceil(text.length / 4);
}

/** Tokens of one history item (cached per item). */
export function estimateItemTokens(item: HistoryItem): number {
  const cached = cache.get(item);
  if (cached !== undefined) return cached;
  let n = MESSAGE_OVERHEAD;
  if (item.type === 'message') for (const p of item.content) n += estimateTextTokens(p.text);
  else if (item.type === 'tool_call') n += estimateTextTokens(item.name) + estimateTextTokens(item.arguments);
  else n += estimateTextTokens(item.summary) + estimateTextTokens(item.content ?? '');
  // Cached either way: loading the tokenizer starts a fresh cache, so rough counts do not linger.
  cache.set(item, n);
  return n;
}

let lastSystem: { text: string; tokens: number; exact: boolean } | undefined;

/** The system prompt is the same request after request: count it once. */
function systemTokens(text: string): number {
  if (lastSystem?.text === text && lastSystem.exact === (count !== undefined)) return lastSystem.tokens;
  lastSystem = { text, tokens: estimateTextTokens(text), exact: count !== undefined };
  return lastSystem.tokens;
}

/**
 * Tokens of a request's context: the system prompt plus every item. Used where a provider
 * reports no usage, and by the offline providers; cheap before every request (items cached).
 */
export function estimateItemsTokens(items: readonly HistoryItem[], system = ''): number {
  return systemTokens(system) + itemsTokens(items);
}

/** The last list counted: history only grows by appending, so the next count starts there. */
let lastList: { first: HistoryItem; last: HistoryItem; length: number; tokens: number; exact: boolean } | undefined;

function itemsTokens(items: readonly HistoryItem[]): number {
  let start = 0;
  let n = 0;
  const prev = lastList;
  if (prev && prev.exact === (count !== undefined) && items.length >= prev.length && items[0] === prev.first && items[prev.length - 1] === prev.last) {
    start = prev.length;
    n = prev.tokens;
  }
  for (let i = start; i < items.length; i++) n += estimateItemTokens(items[i]);
  if (items.length > 0) lastList = { first: items[0], last: items[items.length - 1], length: items.length, tokens: n, exact: count !== undefined };
  return n;
}
