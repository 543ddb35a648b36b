import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { cutMarker, OutputCapture } from '../../../plugins/bash/OutputCapture.js';

const capture = (max: number, chunks: (string | Buffer)[]) => {
  const c = new OutputCapture(max);
  for (const chunk of chunks) c.write(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return c.finish();
};

describe('OutputCapture', () => {
  it('keeps output that fits whole, however it is chunked', () => {
    expect(capture(10, ['ab', 'cdef', 'ghij'])).toEqual({ text: 'abcdefghij', totalBytes: 10, droppedBytes: 0 });
    expect(capture(10, [])).toEqual({ text: '', totalBytes: 0, droppedBytes: 0 });
    // A character split across chunks (and across the head/tail boundary) is joined again.
    const e = Buffer.from('é');
    expect(capture(10, ['abcd', e.subarray(0, 1), e.subarray(1), 'xyz']).text).toBe('abcdéxyz');
  });

  it('keeps head and tail of what does not fit, within the limit, with the exact count dropped', () => {
    const out = capture(200, ['HEAD-', 'x'.repeat(100_000), '-TAIL']);
    expect(Buffer.byteLength(out.text)).toBeLessThanOrEqual(200);
    expect(out.text.startsWith('HEAD-xxx')).toBe(true);
    expect(out.text.endsWith('xxx-TAIL')).toBe(true);
    const marker = cutMarker(out.droppedBytes);
    expect(out.text).toContain(marker);
    expect(Buffer.byteLength(out.text) - Buffer.byteLength(marker) + out.droppedBytes).toBe(100_010);
    expect(out.totalBytes).toBe(100_010);
  });

  it('never splits a UTF-8 character, and accounts for every byte (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { maxLength: 60 }),
        fc.integer({ min: 64, max: 400 }),
        (parts, max) => {
          const bytes = Buffer.from(parts.join(''));
          // Chunks cut at arbitrary byte offsets, as a pipe delivers them.
          const chunks: Buffer[] = [];
          for (let i = 0; i < bytes.length; i += 7) chunks.push(bytes.subarray(i, i + 7));
          const out = capture(max, chunks);
          // A split character would decode to U+FFFD (and fail the byte comparisons below).
          if (!parts.join('').includes('\ufffd')) expect(out.text).not.toContain('\ufffd');
          expect(out.totalBytes).toBe(bytes.length);
          if (bytes.length <= max) {
            expect(out).toEqual({ text: bytes.toString('utf8'), totalBytes: bytes.length, droppedBytes: 0 });
          } else {
            expect(Buffer.byteLength(out.text)).toBeLessThanOrEqual(max);
            const marker = cutMarker(out.droppedBytes);
            const at = out.text.indexOf(marker);
            const head = Buffer.from(out.text.slice(0, at));
            const tail = Buffer.from(out.text.slice(at + marker.length));
            expect(bytes.subarray(0, head.length).equals(head)).toBe(true);
            expect(bytes.subarray(bytes.length - tail.length).equals(tail)).toBe(true);
            expect(head.length + tail.length + out.droppedBytes).toBe(bytes.length);
          }
        },
      ),
      { examples: [[['\ufffd'], 64]] },
    );
  });

  it('with a limit smaller than its marker, keeps the marker alone', () => {
    const out = capture(8, ['0123456789abcdef']);
    expect(out).toEqual({ text: cutMarker(16), totalBytes: 16, droppedBytes: 16 });
  });
});
