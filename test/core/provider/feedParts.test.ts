import { describe, expect, it } from '@jest/globals';
import type { BufferedPartIterator, ProviderPart } from '../../../core/provider/Provider.js';
import { feedParts } from '../../../core/provider/feedParts.js';
import { TimeSlice } from '../../../core/tokens/TimeSlice.js';

const delta = (i: number): ProviderPart => ({ type: 'text-delta', text: `t${i}` });

/** Holds `n` parts; hands out `burst` of them per `next()`: one by promise, the rest buffered. */
function buffered(n: number, burst: number) {
  let i = 0;
  const calls = { next: 0, take: 0, closed: 0 };
  const it: BufferedPartIterator & AsyncIterable<ProviderPart> = {
    [Symbol.asyncIterator]: () => it,
    next: async () => {
      calls.next++;
      return i < n ? { value: delta(i++), done: false } : { value: undefined, done: true };
    },
    takeBuffered: () => {
      if (i >= n || i % burst === 0) return undefined;
      calls.take++;
      return delta(i++);
    },
    return: async () => {
      calls.closed++;
      return { value: undefined, done: true };
    },
  };
  return { it, calls };
}

const slice = () => new TimeSlice(undefined, 1_000_000);

describe('feedParts', () => {
  it("takes a buffered iterator's parts without a `next()` each, all of them, in order", async () => {
    const { it: parts, calls } = buffered(1000, 100);
    const got: ProviderPart[] = [];
    await feedParts(parts, { stopped: false }, slice(), (p) => got.push(p));
    expect(got).toEqual(Array.from({ length: 1000 }, (_, i) => delta(i)));
    expect(calls).toEqual({ next: 11, take: 990, closed: 0 }); // 10 bursts and the end; not closed
  });

  it('reads a plain async iterable as `for await` does', async () => {
    async function* gen() {
      for (let i = 0; i < 50; i++) yield delta(i);
    }
    const got: ProviderPart[] = [];
    await feedParts(gen(), { stopped: false }, slice(), (p) => got.push(p));
    expect(got).toEqual(Array.from({ length: 50 }, (_, i) => delta(i)));
  });

  it('closes the stream when the handler throws, and rethrows', async () => {
    let closed = false;
    async function* gen() {
      try {
        for (let i = 0; ; i++) yield delta(i);
      } finally {
        closed = true;
      }
    }
    let seen = 0;
    const feeding = feedParts(gen(), { stopped: false }, slice(), () => {
      if (++seen === 5) throw new Error('bad part');
    });
    await expect(feeding).rejects.toThrow('bad part');
    expect(closed).toBe(true);
  });

  it('does not close a stream whose `next()` failed', async () => {
    let closed = 0;
    const parts: AsyncIterable<ProviderPart> = {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(new Error('reset')),
        return: async () => {
          closed++;
          return { value: undefined, done: true };
        },
      }),
    };
    await expect(feedParts(parts, { stopped: false }, slice(), () => undefined)).rejects.toThrow('reset');
    expect(closed).toBe(0);
  });

  it('stops at the next part once stopped, even within a buffered burst, and closes the stream', async () => {
    const stop = { stopped: false };
    const { it: parts, calls } = buffered(1000, 1000);
    let seen = 0;
    await feedParts(parts, stop, slice(), () => {
      if (++seen === 10) stop.stopped = true;
    });
    expect(seen).toBe(10);
    expect(calls.closed).toBe(1);
  });

  it('gives the event loop a turn inside a long buffered burst once the slice is over', async () => {
    const { it: parts } = buffered(5000, 5000);
    let turned = false;
    let seenAtTurn = -1;
    let seen = 0;
    setImmediate(() => {
      turned = true;
      seenAtTurn = seen;
    });
    await feedParts(parts, { stopped: false }, new TimeSlice(undefined, 0), () => seen++);
    expect(turned).toBe(true);
    expect(seenAtTurn).toBeGreaterThan(0);
    expect(seenAtTurn).toBeLessThan(5000);
  });
});
