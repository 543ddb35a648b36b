import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { fuzzAssert } from '../support/fuzzRuns.js';
import {
  JsonFloat,
  compareUtf8,
  formatRustFloat,
  needsExactParse,
  parseJson,
  parseJsonExact,
  stringifyJsonExact,
} from '../../core/protocol/index.js';

describe('parseJson (fast path + exact fallback)', () => {
  it('agrees with the exact parser on any JSON value', async () => {
    await fuzzAssert(
      'json: fast path = exact parser',
      fc.property(fc.jsonValue(), (v) => {
        const text = JSON.stringify(v);
        const exact = stringifyJsonExact(parseJsonExact(text));
        expect(stringifyJsonExact(parseJson(text))).toBe(exact);
      }),
      500,
    );
  });

  it('keeps integers above 2^53 exact and float literals as JsonFloat', () => {
    const v = parseJson('{"a":18446744073709551615,"b":1.0,"c":-0,"d":1e3,"e":7}') as Record<string, unknown>;
    expect(v.a).toBe(18446744073709551615n);
    expect(v.b).toBeInstanceOf(JsonFloat);
    expect(v.c).toBeInstanceOf(JsonFloat);
    expect(v.d).toEqual(new JsonFloat(1000));
    expect(v.e).toBe(7);
  });

  it.each([
    ['{"a":1,"a":2}', /duplicate field `a`/],
    ['{"x":{"a":1,"b":{"a":2},"a":3}}', /duplicate field `a`/],
    ['"\\ud800"', /hex escape/],
    ['"\\udc00"', /surrogate/],
    ['[1,]', /expected value/],
    ['{"a":1}x', /trailing characters/],
    ['\ufeff{}', /expected value/],
    ['', /EOF/],
    ['"a\u0001b"', /control character/],
    [`${'['.repeat(129)}${']'.repeat(129)}`, /recursion limit/],
  ])('rejects %j with a readable error', (text, pattern) => {
    expect(() => parseJson(text)).toThrow(pattern);
  });

  it('accepts nesting up to depth 128 and a valid surrogate pair', () => {
    expect(() => parseJson(`${'['.repeat(128)}${']'.repeat(128)}`)).not.toThrow();
    expect(parseJson('"\\ud83d\\ude00"')).toBe('😀');
  });

  it('takes the fast path for ordinary protocol lines', () => {
    expect(needsExactParse('{"event":"text_delta","data":{"text":"version 1.0 \\"quoted\\" {x:1}"}}')).toBe(false);
    expect(needsExactParse('{"event":"usage","data":{"input_tokens":120,"output_tokens":5}}')).toBe(false);
    expect(needsExactParse('{"a":1.5}')).toBe(true);
    expect(needsExactParse('{"a":1,"a":1}')).toBe(true);
  });

  it('keeps "__proto__" as an ordinary key', () => {
    const v = parseJsonExact('{"__proto__":{"x":1},"y":1.0}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(['__proto__', 'y']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('formatRustFloat', () => {
  it.each([
    [1, '1.0'],
    [-0, '-0.0'],
    [0.1, '0.1'],
    [1.5e-7, '1.5e-7'],
    [1e21, '1e+21'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [0.00001, '0.00001'],
    [1e-6, '1e-6'],
    [123456789.125, '123456789.125'],
    [5e-324, '5e-324'],
    [1.2345678901234568e20, '1.2345678901234568e+20'],
    [-1.25e-10, '-1.25e-10'],
    [NaN, 'null'],
    [Infinity, 'null'],
  ])('%p → %s', (n, s) => expect(formatRustFloat(n)).toBe(s));

  it('round-trips every finite double', async () => {
    await fuzzAssert(
      'json: Rust float formatting',
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => {
        expect(Object.is(Number(formatRustFloat(d)), d)).toBe(true);
      }),
      500,
    );
  });
});

describe('stringifyJsonExact', () => {
  it('writes JS numbers as serde holds them: i64/u64 integers as such, the rest as Rust floats', () => {
    expect(stringifyJsonExact([5, -(2 ** 63), 2 ** 60, 2 ** 64, 1e20, 1e-6, 0.5, -0])).toBe(
      '[5,-9223372036854775808,1152921504606846976,1.8446744073709552e+19,1e+20,1e-6,0.5,0]',
    );
  });

  it('reads back what it writes, for any value', async () => {
    await fuzzAssert(
      'json: exact writer is a fixed point',
      fc.property(fc.jsonValue(), (v) => {
        const once = stringifyJsonExact(v);
        expect(stringifyJsonExact(parseJsonExact(once))).toBe(once);
      }),
      300,
    );
  });

  it('sorts keys byte-wise when asked, including integer-like keys JS would reorder', () => {
    const v = parseJsonExact('{"10":5,"2":6,"Mid":3,"_x":4,"alpha":2,"zeta":1}');
    expect(stringifyJsonExact(v, { sortKeys: true })).toBe('{"10":5,"2":6,"Mid":3,"_x":4,"alpha":2,"zeta":1}');
  });

  it('orders by code point, not UTF-16 unit', () => {
    expect(['\uffff', '😀'].sort(compareUtf8)).toEqual(['\uffff', '😀']);
    expect(compareUtf8('a', 'ab')).toBeLessThan(0);
  });
});
