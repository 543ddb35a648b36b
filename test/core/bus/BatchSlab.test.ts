import { describe, expect, it } from '@jest/globals';
import { BatchSlab } from '../../../core/bus/BatchSlab.js';
import { emptyArray } from '../../../core/util/emptyArray.js';

describe('BatchSlab', () => {
  it('encodes each text as its UTF-8 bytes, consecutive batches sharing one slab', () => {
    const slab = new BatchSlab();
    const texts = ['{"a":1}\n', 'héllo → 世界 🎉\n', 'x'.repeat(1000)];
    const bufs = texts.map((t) => slab.encode(t));
    bufs.forEach((b, i) => expect(b.toString('utf8')).toBe(texts[i]));
    expect(bufs[1].buffer).toBe(bufs[0].buffer);
    expect(bufs[1].byteOffset).toBe(bufs[0].byteOffset + bufs[0].length);
  });

  it('starts a new slab when the current one is full, leaving earlier slices intact', () => {
    const slab = new BatchSlab();
    const first = slab.encode('first\n');
    const many = Array.from({ length: 20 }, (_, i) => slab.encode(`${String(i).padStart(8000, '.')}\n`));
    expect(new Set(many.map((b) => b.buffer)).size).toBeGreaterThan(1);
    expect(first.toString()).toBe('first\n');
    many.forEach((b, i) => expect(b.toString()).toBe(`${String(i).padStart(8000, '.')}\n`));
  });

  it('gives a large text a buffer of its own', () => {
    const big = slabText(40_000);
    const buf = new BatchSlab().encode(big);
    expect(buf.toString()).toBe(big);
    expect(buf.byteLength).toBe(buf.buffer.byteLength);
  });
});

describe('emptyArray', () => {
  it('returns a new empty array each time', () => {
    const a = emptyArray<string>();
    const b = emptyArray<string>();
    a.push('x');
    expect(a).toEqual(['x']);
    expect(b).toEqual([]);
    expect(emptyArray()).toEqual([]);
  });
});

function slabText(n: number): string {
  return `${'y'.repeat(n)}\n`;
}
