import type { HistoryItem } from '../history/HistoryItem.js';
import { FULL_LIMITS, SYNC_LIMITS, countInPieces, countInPiecesAsync, type PieceCounter } from './countInPieces.js';
import { TimeSlice } from './TimeSlice.js';

/** Tokens a message costs beyond its text (role and separators), as chat formats count them. */
const MESSAGE_OVERHEAD = 4;

/**
 * Characters one synchronous call may hand to the tokenizer in all (~40 ms for the most hostile
 * text on a loaded machine); what is left of a longer list is estimated at ~4 characters per
 * token until an asynchronous count (which yields) replaces the estimate.
 */
const SYNC_BUDGET_CHARS = 2 * 1024;

/**
 * gpt-tokenizer keeps the words it merged in an LRU cache keyed by the word (100,000 entries by
 * default); with pieces of up to 512 characters, hostile text could make that ~100 MB that is
 * never released. A tenth of it keeps prose fast.
 */
const MERGE_CACHE_ENTRIES = 10_000;

let count: PieceCounter | undefined;
let loading: Promise<void> | undefined;

/**
 * Per-item counts: history items are immutable once committed, so each is tokenized once.
 * `full`: counted as well as the asynchronous path counts (or as well as possible before the
 * tokenizer is loaded); a synchronous count of a long item is provisional.
 */
let cache = new WeakMap<HistoryItem, { n: number; full: boolean }>();

/**
 * Loads the tokenizer (gpt-tokenizer, o200k_base) once per process. Imported lazily: its
 * tables take ~0.2 s to load, which a CLI command must not pay. Until it is loaded, estimates
 * fall back to ~4 characters per token; the pod awaits this before its first LLM request.
 */
export function loadTokenizer(): Promise<void> {
  loading ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => {
    m.setMergeCacheSize(MERGE_CACHE_ENTRIES);
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

const rough = (text: string) => Math.ceil(text.length / 4);

/** What is left of the current synchronous call's budget (see SYNC_BUDGET_CHARS). */
let syncBudget = SYNC_BUDGET_CHARS;

/** A synchronous count within the call's budget: `full` when it is as good as an asynchronous one. */
function syncCount(text: string): { n: number; full: boolean } {
  if (text === '') return { n: 0, full: true };
  if (!count) return { n: rough(text), full: true };
  const cost = Math.min(
    text.length,
    text.length <= SYNC_LIMITS.exactChars ? SYNC_LIMITS.exactChars : SYNC_LIMITS.sampleChars,
  );
  if (cost > syncBudget) return { n: rough(text), full: false };
  syncBudget -= cost;
  return { n: countInPieces(text, count, SYNC_LIMITS), full: text.length <= SYNC_LIMITS.exactChars };
}

/** Runs `work` with a fresh synchronous budget (calls nest: the outermost one sets it). */
function withBudget<T>(work: () => T): T {
  const outer = budgetDepth++ === 0;
  if (outer) syncBudget = SYNC_BUDGET_CHARS;
  try {
    return work();
  } finally {
    budgetDepth--;
  }
}
let budgetDepth = 0;

/**
 * Tokens of a text: exact for o200k_base once the tokenizer is loaded (long texts from a sample,
 * see countInPieces), else about chars/4. Synchronous, so bounded: prefer `countTextTokens`.
 */
export function estimateTextTokens(text: string): number {
  return withBudget(() => syncCount(text).n);
}

/** Tokens of a text, counted in pieces that yield to the event loop; rejects once `signal` aborts. */
export function countTextTokens(text: string, signal?: AbortSignal): Promise<number> {
  return textAsync(text, new TimeSlice(signal));
}

function textAsync(text: string, slice: TimeSlice): Promise<number> {
  if (text === '') return Promise.resolve(0);
  if (!count) return Promise.resolve(rough(text));
  return countInPiecesAsync(text, count, () => slice.pause(), FULL_LIMITS);
}

function itemTexts(item: HistoryItem): string[] {
  if (item.type === 'message') return item.content.map((p) => p.text);
  if (item.type === 'tool_call') return [item.name, item.arguments];
  return [item.summary, item.content ?? ''];
}

/** Tokens of one history item (cached per item). */
export function estimateItemTokens(item: HistoryItem): number {
  return withBudget(() => syncItem(item));
}

function syncItem(item: HistoryItem): number {
  const cached = cache.get(item);
  if (cached !== undefined) return cached.n;
  let n = MESSAGE_OVERHEAD;
  let full = true;
  for (const text of itemTexts(item)) {
    const c = syncCount(text);
    n += c.n;
    full &&= c.full;
  }
  // Cached either way: loading the tokenizer starts a fresh cache, so rough counts do not linger.
  cache.set(item, { n, full });
  return n;
}

async function itemAsync(item: HistoryItem, slice: TimeSlice): Promise<number> {
  let n = MESSAGE_OVERHEAD;
  for (const text of itemTexts(item)) n += await textAsync(text, slice);
  cache.set(item, { n, full: true });
  return n;
}

/**
 * Gives each item of `to` the count cached for the item of `from` at the same place when their
 * texts are the same: a validated copy of a list (zod returns new objects) is not counted again.
 */
export function carryTokenCounts(from: readonly HistoryItem[], to: readonly HistoryItem[]): void {
  for (let i = 0; i < Math.min(from.length, to.length); i++) {
    const cached = cache.get(from[i]);
    if (cached === undefined || cache.has(to[i])) continue;
    const a = itemTexts(from[i]);
    const b = itemTexts(to[i]);
    if (a.length === b.length && a.every((text, j) => text === b[j])) cache.set(to[i], cached);
  }
}

let lastSystem: { text: string; tokens: number; full: boolean; exact: boolean } | undefined;

/** The system prompt is the same request after request: count it once. */
function systemTokens(text: string): number {
  if (lastSystem?.text === text && lastSystem.exact === (count !== undefined)) return lastSystem.tokens;
  const c = syncCount(text);
  lastSystem = { text, tokens: c.n, full: c.full, exact: count !== undefined };
  return c.n;
}

async function systemAsync(text: string, slice: TimeSlice): Promise<number> {
  if (lastSystem?.text === text && lastSystem.exact === (count !== undefined) && lastSystem.full)
    return lastSystem.tokens;
  const tokens = await textAsync(text, slice);
  lastSystem = { text, tokens, full: true, exact: count !== undefined };
  return tokens;
}

/**
 * Tokens of a request's context: the system prompt plus every item. Synchronous, so bounded
 * (see SYNC_BUDGET_CHARS); the pod itself uses `countItemsTokens`. Cheap when items are cached.
 */
export function estimateItemsTokens(items: readonly HistoryItem[], system = ''): number {
  return withBudget(() => systemTokens(system) + itemsTokens(items));
}

/**
 * Tokens of a request's context, counted in pieces that yield to the event loop (no step blocks
 * it for more than a few milliseconds, whatever the input); rejects once `signal` aborts.
 * Every item counted is cached, so synchronous counts of the same items are exact afterwards.
 */
export async function countItemsTokens(
  items: readonly HistoryItem[],
  system = '',
  signal?: AbortSignal,
): Promise<number> {
  const slice = new TimeSlice(signal);
  const n = await systemAsync(system, slice);
  if (items.length === 0) return n;
  // History only grows by appending (as for the synchronous estimate): a list that starts and
  // goes on like one counted before continues from its count, so a run's count does not walk
  // the whole history again (a long session's runs would cost ever more before their first
  // delta could leave).
  const exact = count !== undefined;
  const prev = countedLists.get(items[0]);
  let start = 0;
  let sum = 0;
  if (prev && prev.exact === exact && items.length >= prev.length && items[prev.length - 1] === prev.last) {
    start = prev.length;
    sum = prev.tokens;
  }
  for (let i = start; i < items.length; i++) {
    const cached = cache.get(items[i]);
    sum += cached?.full ? cached.n : await itemAsync(items[i], slice);
  }
  if ((count !== undefined) === exact)
    countedLists.set(items[0], { last: items[items.length - 1], length: items.length, tokens: sum, exact });
  return n + sum;
}

/** Lists `countItemsTokens` counted, by their first item (the history and its slices apart). */
const countedLists = new WeakMap<HistoryItem, { last: HistoryItem; length: number; tokens: number; exact: boolean }>();

/** The last list counted: history only grows by appending, so the next count starts there. */
let lastList: { first: HistoryItem; last: HistoryItem; length: number; tokens: number; exact: boolean } | undefined;

function itemsTokens(items: readonly HistoryItem[]): number {
  let start = 0;
  let n = 0;
  const prev = lastList;
  if (
    prev &&
    prev.exact === (count !== undefined) &&
    items.length >= prev.length &&
    items[0] === prev.first &&
    items[prev.length - 1] === prev.last
  ) {
    start = prev.length;
    n = prev.tokens;
  }
  let full = true;
  for (let i = start; i < items.length; i++) {
    n += syncItem(items[i]);
    full &&= cache.get(items[i])?.full === true;
  }
  // Only complete counts are a base to continue from: a provisional one is redone later.
  if (items.length > 0 && full)
    lastList = {
      first: items[0],
      last: items[items.length - 1],
      length: items.length,
      tokens: n,
      exact: count !== undefined,
    };
  return n;
}
