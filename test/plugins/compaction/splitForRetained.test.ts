import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { messageItem, type HistoryItem } from '../../../core/history/HistoryItem.js';
import { splitForRetained } from '../../../plugins/compaction/splitForRetained.js';

const user = (t: string) => messageItem('user', t);
const assistant = (t: string) => messageItem('assistant', t);
const call = (id: string): HistoryItem => ({ type: 'tool_call', call_id: id, name: 'Read', arguments: '{}' });
const result = (id: string): HistoryItem => ({ type: 'tool_result', call_id: id, summary: 'ok' });
/** Every item costs 10 tokens: budgets read as item counts. */
const ten = () => 10;

describe('splitForRetained', () => {
  it('keeps the most recent items that fit in the budget', () => {
    const items = [user('a'), assistant('b'), user('c'), assistant('d'), user('e'), assistant('f')];
    expect(splitForRetained(items, 20, ten)).toBe(4);
    expect(splitForRetained(items, 25, ten)).toBe(4);
    expect(splitForRetained(items, 0, ten)).toBe(6);
  });

  it('never separates a tool call from its result: the tail starts before the calls of a round', () => {
    const items = [user('a'), assistant('b'), call('1'), call('2'), result('1'), result('2'), assistant('c')];
    // A budget of 3 items would start the tail at result('2'); the round moves wholly to the summary side.
    expect(splitForRetained(items, 30, ten)).toBe(6);
    expect(splitForRetained(items, 50, ten)).toBe(2);
  });

  it('keeps calls still waiting for their result (a paused run) in the tail, even over the budget', () => {
    const items = [user('a'), assistant('b'), user('c'), call('1'), call('2'), result('1')];
    expect(splitForRetained(items, 0, ten)).toBe(3);
  });

  it('summarises something when everything fits: only the latest exchange is kept', () => {
    expect(splitForRetained([user('a'), assistant('b'), user('c'), assistant('d')], 1000, ten)).toBe(3);
    expect(splitForRetained([user('a'), call('1'), result('1')], 1000, ten)).toBe(1);
    expect(splitForRetained([user('a')], 1000, ten)).toBe(1);
  });

  it('returns 0 when nothing can be summarised', () => {
    expect(splitForRetained([], 100, ten)).toBe(0);
    expect(splitForRetained([call('1'), result('1'), call('2')], 0, ten)).toBe(2);
    expect(splitForRetained([call('1')], 0, ten)).toBe(0);
  });

  it('property: every cut is safe, summarises at least one item, and the tail fits whenever a safe cut allows it', () => {
    const item = fc.oneof(
      fc.constant<'u' | 'a' | 'round' | 'open'>('u'),
      fc.constant<'u' | 'a' | 'round' | 'open'>('a'),
      fc.constant<'u' | 'a' | 'round' | 'open'>('round'),
    );
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 400 }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 200, maxLength: 200 }),
        (shape, open, budget, costs) => {
          const items: HistoryItem[] = [];
          let id = 0;
          for (const s of shape) {
            if (s === 'u') items.push(user('u'));
            else if (s === 'a') items.push(assistant('a'));
            else {
              const ids = [String(++id), String(++id)];
              items.push(...ids.map(call), ...ids.map(result));
            }
          }
          if (open) items.push(call(String(++id)));
          const cost = new Map(items.map((it, i) => [it, costs[i % costs.length]]));
          const cut = splitForRetained(items, budget, (it) => cost.get(it)!);
          const before = new Set(items.slice(0, cut).flatMap((i) => (i.type === 'tool_call' ? [i.call_id] : [])));
          const resultsBefore = new Set(
            items.slice(0, cut).flatMap((i) => (i.type === 'tool_result' ? [i.call_id] : [])),
          );
          // No call on the summarised side lacks its result there, and no result is kept without its call.
          for (const c of before) expect(resultsBefore.has(c)).toBe(true);
          for (const i of items.slice(cut)) if (i.type === 'tool_result') expect(before.has(i.call_id)).toBe(false);
          if (items.length > 0 && !(items.length === 1 && open)) expect(cut).toBeGreaterThan(0);
          if (cut === 0) return;
          // The earliest safe cut whose tail fits the budget (when the history does not fit whole).
          const suffix = (j: number) => items.slice(j).reduce((n, i) => n + cost.get(i)!, 0);
          const safeAt = (j: number) => {
            const pending = new Set<string>();
            for (const i of items.slice(0, j)) {
              if (i.type === 'tool_call') pending.add(i.call_id);
              else if (i.type === 'tool_result') pending.delete(i.call_id);
            }
            return pending.size === 0;
          };
          expect(safeAt(cut)).toBe(true);
          if (suffix(0) > budget && !open) {
            expect(suffix(cut)).toBeLessThanOrEqual(budget);
            for (let j = 1; j < cut; j++) if (safeAt(j)) expect(suffix(j)).toBeGreaterThan(budget);
          }
        },
      ),
    );
  });
});
