import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { fuzzAssert } from '../support/fuzzRuns.js';
import { LineReader, decodeMethodLine, encodeMethod, type LineError, type Method } from '../../core/protocol/index.js';

function collect(chunks: Buffer[], maxLineBytes?: number) {
  const lines: string[] = [];
  const errors: LineError[] = [];
  const r = new LineReader({ maxLineBytes, onLine: (l) => lines.push(l), onError: (e) => errors.push(e) });
  for (const c of chunks) r.push(c);
  r.end();
  return { lines, errors };
}

describe('LineReader', () => {
  it('handles CRLF, blank lines and a final line without newline', () => {
    expect(collect([Buffer.from('a\r\n\n  \r\nb\nc')]).lines).toEqual(['a', 'b', 'c']);
  });

  it('reports invalid UTF-8 for that line only', () => {
    const { lines, errors } = collect([Buffer.from([0xff, 0xfe, 0x0a]), Buffer.from('ok\n')]);
    expect(lines).toEqual(['ok']);
    expect(errors).toEqual([{ kind: 'invalid_utf8', message: 'line is not valid UTF-8' }]);
  });

  it('keeps a BOM (serde rejects it later) but trims Unicode whitespace', () => {
    expect(collect([Buffer.from('\ufeffx\n\u00a0\u3000y\u2028\u0085\n')]).lines).toEqual(['\ufeffx', 'y']);
  });

  it('reports an over-limit line once, discards the rest of it, and continues', () => {
    const long = Buffer.alloc(100, 0x61);
    const { lines, errors } = collect([Buffer.from('first\n'), long, long, Buffer.from('tail\nnext\n')], 64);
    expect(lines).toEqual(['first', 'next']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind: 'line_too_long', limit: 64 });
    expect(errors[0].message).toBe('line exceeds the 64 bytes limit; the rest of the line was discarded');
  });

  it('rejects a line over the limit even when it arrives in one chunk with its newline', () => {
    const { lines, errors } = collect([Buffer.from(`${'x'.repeat(20)}\nok\n`)], 10);
    expect(lines).toEqual(['ok']);
    expect(errors).toHaveLength(1);
  });

  it('does not keep a reference to caller buffers that may be reused', () => {
    const buf = Buffer.from('abc');
    const r: string[] = [];
    const reader = new LineReader({ onLine: (l) => r.push(l), onError: () => {} });
    reader.push(buf);
    buf.fill(0x7a);
    reader.push(Buffer.from('\n'));
    expect(r).toEqual(['abc']);
  });

  it('takes unfinished lines from a shared budget: the line that does not fit is dropped, the others are kept until released', () => {
    let used = 0;
    const budget = {
      limit: 10,
      take: (n: number) => (used + n <= 10 ? ((used += n), true) : false),
      give: (n: number) => void (used -= n),
    };
    const got: { line: string; release: () => void }[] = [];
    const errors: LineError[] = [];
    const reader = (name: string) =>
      new LineReader({
        budget,
        onLine: (line, release) => got.push({ line: `${name}:${line}`, release }),
        onError: (e) => errors.push(e),
      });
    const a = reader('a');
    const b = reader('b');
    a.push(Buffer.from('123456'));
    b.push(Buffer.from('1234'));
    expect(used).toBe(10);
    b.push(Buffer.from('5')); // b is over the budget: its line is dropped and the rest discarded
    expect(errors).toMatchObject([{ kind: 'input_budget', limit: 10 }]);
    expect(errors[0].message).toBe(
      "line dropped: the pod's 10 bytes for unfinished lines of all clients (limits.inputBufferBytes) is in use; the rest of the line was discarded",
    );
    expect(used).toBe(6);
    b.push(Buffer.from('6\nok\n')); // the next line of b is fine (it arrived whole, nothing buffered)
    a.push(Buffer.from('7\n'));
    expect(got.map((g) => g.line)).toEqual(['b:ok', 'a:1234567']);
    expect(used).toBe(6); // a's line holds its bytes until its receiver is done with it
    got[1].release();
    got[1].release();
    expect(used).toBe(0);
    a.push(Buffer.from('half'));
    expect(used).toBe(4);
    a.discard(); // the stream closed
    expect(used).toBe(0);
    expect(a.bufferedBytes).toBe(0);
  });

  it('property: any bytes in any chunks: never throws, lines are trimmed and whole, errors one line, the budget is given back', async () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 64 }),
      fc.constantFrom(
        Buffer.from('\n'),
        Buffer.from('\r\n'),
        Buffer.from([0xff]),
        Buffer.from([0xe2, 0x82]),
        Buffer.from(' \u3000\ufeff'),
      ),
      fc.string({ unit: 'grapheme', maxLength: 20 }).map((t) => Buffer.from(t)),
    );
    await fuzzAssert(
      'framing: any bytes',
      fc.property(
        fc.array(bytes, { maxLength: 20 }),
        fc.integer({ min: 1, max: 48 }),
        fc.integer({ min: 1, max: 96 }),
        (chunks, max, limit) => {
          let used = 0;
          const budget = {
            limit,
            take: (n: number) => (used + n <= limit ? ((used += n), true) : false),
            give: (n: number) => void (used -= n),
          };
          const releases: (() => void)[] = [];
          const lines: string[] = [];
          const errors: LineError[] = [];
          const r = new LineReader({
            maxLineBytes: max,
            budget,
            onLine: (l, release) => (lines.push(l), releases.push(release)),
            onError: (e) => errors.push(e),
          });
          for (const c of chunks) r.push(Buffer.from(c));
          r.end();
          for (const l of lines) {
            expect(l).not.toContain('\n');
            expect(l.length).toBeGreaterThan(0);
            expect(l.trim() === l || /^\ufeff|\ufeff$/.test(l)).toBe(true);
            expect(Buffer.byteLength(l)).toBeLessThanOrEqual(max);
          }
          for (const e of errors) {
            expect(['line_too_long', 'input_budget', 'invalid_utf8']).toContain(e.kind);
            expect(e.message).not.toMatch(/[\n\r]/);
          }
          expect(used).toBeGreaterThanOrEqual(0);
          for (const release of releases) release();
          expect(used).toBe(0);
        },
      ),
      1500,
    );
  });

  it('property: any valid stream split at random byte boundaries yields the same messages', async () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const method: fc.Arbitrary<Method> = fc.oneof(
      fc.record({
        method: fc.constant('run' as const),
        params: fc.record({
          input: fc.array(fc.record({ kind: fc.constant('text' as const), content: text }), { maxLength: 3 }),
        }),
      }),
      fc.record({ method: fc.constant('notify' as const), params: fc.record({ message: text }) }),
      fc.constantFrom<Method>({ method: 'pause' }, { method: 'resume' }, { method: 'get_history' }),
    );
    await fuzzAssert(
      'framing: random splits',
      fc.property(
        fc.array(method, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.boolean(),
        (methods, cuts, crlf) => {
          const wire = methods.map((m) => encodeMethod(m) + (crlf ? '\r\n' : '\n')).join('');
          const bytes = Buffer.from(wire, 'utf8');
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks: Buffer[] = [];
          let prev = 0;
          for (const p of [...points, bytes.length]) {
            chunks.push(bytes.subarray(prev, p));
            prev = p;
          }
          const { lines, errors } = collect(chunks);
          expect(errors).toEqual([]);
          const decoded = lines.map((l) => {
            const d = decodeMethodLine(l);
            if (!d.ok) throw new Error(d.error);
            return encodeMethod(d.value);
          });
          expect(decoded).toEqual(methods.map((m) => encodeMethod(m)));
        },
      ),
      500,
    );
  });
});
