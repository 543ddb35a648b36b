import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import * as P from '../../core/protocol/index.js';
import { decodeTextDeltaLine } from '../../core/protocol/decodeTextDelta.js';
import { fuzzAssert } from '../support/fuzzRuns.js';
import { anyString } from '../support/protocolArbitraries.js';

/** What `decodeEventLine` did before the fast path: the exact JSON parse, then the schema pass. */
const fullPath = (line: string): P.Decoded<P.Event> => {
  const parsed = P.parseLine(line);
  return parsed.ok ? P.decodeEvent(parsed.value) : parsed;
};

/** A text_delta line as the pod writes it, then damaged by a few random edits. */
const damagedDelta = fc
  .tuple(
    anyString,
    fc.option(fc.nat(), { nil: undefined }),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat({ max: 3 }),
        fc.constantFrom('', '"', '\\', 'u', 'd', '}', ',', ':', '1', '\u0001', ' ', '\\ud800'),
      ),
      { maxLength: 3 },
    ),
  )
  .map(([text, seq, edits]) => {
    let line = P.encodeEvent({ event: 'text_delta', data: { text }, seq });
    for (const [at, del, ins] of edits) {
      const i = at % (line.length + 1);
      line = line.slice(0, i) + ins + line.slice(i + del);
    }
    return line;
  });

describe('the text_delta fast path of the event decoder', () => {
  it('takes the lines the encoder writes', () => {
    expect(decodeTextDeltaLine('{"event":"text_delta","seq":7,"data":{"text":"a\\"b\\n"}}')).toEqual({
      event: 'text_delta',
      seq: 7,
      data: { text: 'a"b\n' },
    });
    expect(decodeTextDeltaLine('{"event":"text_delta","data":{"text":"Hello"}}')).toEqual({
      event: 'text_delta',
      data: { text: 'Hello' },
    });
    expect(decodeTextDeltaLine(P.encodeEvent({ event: 'text_delta', seq: 0, data: { text: '😀 é' } }))).toEqual({
      event: 'text_delta',
      seq: 0,
      data: { text: '😀 é' },
    });
  });

  it('leaves every other line to the full decoder, which reports it as before', () => {
    const cases: [string, RegExp | null][] = [
      ['{"event":"text_delta","data":{"text":"a\u0001"}}', /malformed JSON/], // raw control character
      ['{"event":"text_delta","data":{"text":"\\ud800"}}', /malformed JSON/], // lone surrogate escape
      ['{"event":"text_delta","data":{"text":"\\x"}}', /malformed JSON/],
      ['{"event":"text_delta","data":{"text":"a"b"}}', /malformed JSON/],
      ['{"event":"text_delta","data":{"text":"a","x":"b"}}', null], // extra key: decodes, ignored
      ['{"event":"text_delta","seq":-1,"data":{"text":"a"}}', null], // seq not kept
      ['{"event":"text_delta","seq":01,"data":{"text":"a"}}', /malformed JSON/],
      ['{"event":"text_delta","seq":1234567890123456,"data":{"text":"a"}}', null],
      ['{"event":"text_delta","data":{"text":5}}', /expected a string|invalid/],
      ['{"event":"text_delta","data":{"text":"\\ud83d\\ude00"}}', null], // a pair, decoded exactly
    ];
    for (const [line, error] of cases) {
      expect(decodeTextDeltaLine(line)).toBeUndefined();
      const got = P.decodeEventLine(line);
      expect(got).toEqual(fullPath(line));
      if (error) expect(got.ok ? '' : got.error).toMatch(error);
      else expect(got.ok).toBe(true);
    }
  });

  it('decodes every line exactly as the full decoder does, damaged or not', async () => {
    await fuzzAssert(
      'decoder: text_delta fast path',
      fc.property(damagedDelta, (line) => {
        expect(P.decodeEventLine(line)).toEqual(fullPath(line));
      }),
      1000,
    );
  });
});
