import { beforeAll, describe, expect, it } from '@jest/globals';
import { messageItem, type HistoryItem } from '../../../core/history/HistoryItem.js';
import { ContextTracker } from '../../../core/tokens/ContextTracker.js';
import {
  carryTokenCounts,
  countItemsTokens,
  estimateItemTokens,
  estimateItemsTokens,
  estimateTextTokens,
  loadTokenizer,
  tokenizerLoaded,
} from '../../../core/tokens/estimateTokens.js';

describe('token estimates', () => {
  it('fall back to about 4 characters per token until the tokenizer is loaded, then count exactly', async () => {
    expect(tokenizerLoaded()).toBe(false);
    expect(estimateTextTokens('abcdefgh')).toBe(2);
    await loadTokenizer();
    expect(tokenizerLoaded()).toBe(true);
    // o200k_base: "hello world" is two tokens; a special token in user text is plain text.
    expect(estimateTextTokens('hello world')).toBe(2);
    expect(estimateTextTokens('<|endoftext|>')).toBeGreaterThan(1);
    expect(estimateTextTokens('')).toBe(0);
  });

  it('count each item once: the text plus a small per-item overhead, cached per item', async () => {
    await loadTokenizer();
    const user = messageItem('user', 'hello world');
    expect(estimateItemTokens(user)).toBe(2 + 4);
    const call: HistoryItem = { type: 'tool_call', call_id: 'c', name: 'Read', arguments: '{"path":"a.ts"}' };
    const result: HistoryItem = { type: 'tool_result', call_id: 'c', summary: 'Read 3 lines', content: 'x\ny\nz' };
    const total = estimateItemsTokens([user, call, result], 'You help.');
    expect(total).toBe(
      estimateTextTokens('You help.') +
        estimateItemTokens(user) +
        estimateItemTokens(call) +
        estimateItemTokens(result),
    );
    // Items are immutable once committed: the cached count is what is returned.
    (user.content[0] as { text: string }).text = 'changed into a much longer text than before';
    expect(estimateItemTokens(user)).toBe(6);
  });

  it('count a growing history from its last count, and the history and its slices each right', async () => {
    await loadTokenizer();
    const items = Array.from({ length: 50 }, (_, i) =>
      messageItem(i % 2 ? 'assistant' : 'user', `message number ${i} with some words`),
    );
    const each = items.map((item) => estimateItemTokens(item));
    const sum = (from: number, to: number) => each.slice(from, to).reduce((a, b) => a + b, 0);
    const system = estimateTextTokens('You help.');
    for (let n = 1; n <= items.length; n += 7) {
      expect(await countItemsTokens(items.slice(0, n), 'You help.')).toBe(system + sum(0, n)); // grows from the count before
      expect(await countItemsTokens(items.slice(n - 1, n + 3))).toBe(sum(n - 1, n + 3)); // a slice in between changes nothing
    }
    // A list that starts with the same item but is shorter, or goes on differently, is counted anew.
    expect(await countItemsTokens(items.slice(0, 3))).toBe(sum(0, 3));
    const other = [
      items[0],
      ...['another', 'branch', 'entirely'].map((w) => messageItem('user', `${w} of the conversation`)),
    ];
    expect(await countItemsTokens(other)).toBe(other.reduce((a, item) => a + estimateItemTokens(item), 0));
    expect(await countItemsTokens(items)).toBe(sum(0, items.length));
  });

  it('carry a count to a validated copy of an item with the same texts, never to one whose text differs', async () => {
    await loadTokenizer();
    // Long enough that a synchronous estimate of an uncounted copy is provisional (chars / 4).
    const prose = (w: string) => Array.from({ length: 800 }, (_, i) => `${w} ${i}: the loop stops early;`).join('\n');
    const items: HistoryItem[] = [
      messageItem('user', prose('first')),
      { type: 'tool_result', call_id: 'c', summary: 'Read', content: prose('second') },
    ];
    const exact = await countItemsTokens(items);
    const copies = structuredClone(items);
    const changed = structuredClone(items);
    (changed[1] as { content: string }).content += ' and one more line';
    carryTokenCounts(items, copies);
    carryTokenCounts(items, changed);
    expect(estimateItemsTokens(copies)).toBe(exact);
    // The changed item is estimated, not given the count of the one it replaced.
    expect(estimateItemTokens(changed[0])).toBe(estimateItemTokens(items[0]));
    expect(estimateItemTokens(changed[1])).not.toBe(estimateItemTokens(items[1]));
    expect(await countItemsTokens(changed)).toBeGreaterThan(exact);
  });
});

describe('ContextTracker', () => {
  beforeAll(() => loadTokenizer());
  const history: HistoryItem[] = [messageItem('user', 'question'), messageItem('assistant', 'answer')];

  it('estimates the whole context until a provider reports usage', () => {
    const t = new ContextTracker();
    expect(t.current(history, 'sys')).toBe(estimateItemsTokens(history, 'sys'));
  });

  it('is the reported input tokens plus an estimate of the items added since that request', () => {
    const t = new ContextTracker();
    t.record(10_000, 1); // the request saw the user message only
    expect(t.current(history, 'sys')).toBe(10_000 + estimateItemTokens(history[1]));
    const more = [
      ...history,
      { type: 'tool_result', call_id: 'c', summary: 'ok', content: 'line '.repeat(100) } as HistoryItem,
    ];
    expect(t.current(more, 'sys')).toBe(10_000 + estimateItemTokens(more[1]) + estimateItemTokens(more[2]));
  });

  it('estimates again after a reset, a request without usage, or a history replaced by a shorter one', () => {
    const t = new ContextTracker();
    t.record(10_000, 2);
    expect(t.current(history.slice(0, 1), 'sys')).toBe(estimateItemsTokens(history.slice(0, 1), 'sys'));
    t.record(undefined, 2);
    expect(t.current(history, 'sys')).toBe(estimateItemsTokens(history, 'sys'));
    t.record(10_000, 2);
    t.reset();
    expect(t.current(history, 'sys')).toBe(estimateItemsTokens(history, 'sys'));
  });
});
