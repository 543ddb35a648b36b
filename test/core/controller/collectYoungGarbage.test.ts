import v8 from 'node:v8';
import { describe, expect, it } from '@jest/globals';
import { collectYoungGarbage } from '../../../core/controller/collectYoungGarbage.js';

const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!;

describe('collectYoungGarbage (at a run end)', () => {
  it('collects a young generation at least half full, after the callback sent what was queued', () => {
    let garbage: unknown[];
    do garbage = Array.from({ length: 64 }, (_, i) => ({ i }));
    while (young().space_used_size < young().space_available_size);
    expect(garbage).toHaveLength(64);
    const before = young().space_used_size;
    const order: string[] = [];
    collectYoungGarbage(() => order.push(`sent at ${young().space_used_size >= before ? 'full' : 'empty'}`));
    expect(order).toEqual(['sent at full']);
    expect(young().space_used_size).toBeLessThan(before / 2);
  });

  it('leaves a young generation less than half full alone', () => {
    collectYoungGarbage(() => undefined);
    const calls: number[] = [];
    collectYoungGarbage(() => calls.push(1));
    expect(calls).toEqual([]);
  });
});
