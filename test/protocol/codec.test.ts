import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import * as P from '../../core/protocol/index.js';
import { fuzzAssert } from '../support/fuzzRuns.js';
import { anyString, asWire, damagedLine, envelopeLike, methodArb } from '../support/protocolArbitraries.js';

const dm = (line: string) => P.decodeMethodLine(line);
const de = (line: string) => P.decodeEventLine(line);

describe('unknown segment kinds', () => {
  it('keep their raw payload and re-encode as the original object', () => {
    const line =
      '{"method":"run","params":{"input":[{"kind":"image","url":"x","size":{"w":1.5,"h":2}},{"kind":"text","content":"hi"}]}}';
    const d = dm(line);
    expect(d.ok).toBe(true);
    if (!d.ok || d.value.method !== 'run') return;
    const [img, text] = d.value.params.input;
    expect(img).toBeInstanceOf(P.UnknownSegment);
    expect(P.segmentKind(img)).toBe('image');
    expect((img as P.UnknownSegment).raw.url).toBe('x');
    expect(P.segmentKind(text)).toBe('text');
    expect(P.encodeMethod(d.value)).toBe(line);
  });

  it('reach v1 clients as the original object too (Rust reads them as Unknown)', () => {
    const seg = new P.UnknownSegment({ kind: 'jira', ref: 'X-1' });
    const [v1] = P.downgradeToV1({ event: 'user_message', data: { segments: [seg] }, seq: 3 });
    expect(P.encodeEvent(v1)).toBe('{"event":"user_message","data":{"segments":[{"kind":"jira","ref":"X-1"}]}}');
  });
});

describe('encoder', () => {
  it('writes declaration order whatever order the object was built in, and applies defaults', () => {
    const seg = { content: 'x', kind: 'text' } as unknown as P.Segment;
    expect(P.encodeMethod({ params: { input: [seg] }, method: 'run' } as P.Method)).toBe(
      '{"method":"run","params":{"input":[{"kind":"text","content":"x"}]}}',
    );
    expect(P.encodeEvent({ data: { summary: 's', id: 'c' } as never, event: 'tool_result' })).toBe(
      '{"event":"tool_result","data":{"id":"c","summary":"s","is_error":false}}',
    );
    expect(P.encodeWith(P.ScopeRuleSchema, { permission: 'read', target: '/a' })).toBe(
      '{"target":"/a","permission":"read","recursive":true}',
    );
  });

  it('writes v2 envelope fields after the tag', () => {
    expect(P.encodeEvent({ event: 'ack', request_id: 'r1', data: { method: 'run' } })).toBe(
      '{"event":"ack","request_id":"r1","data":{"method":"run"}}',
    );
    expect(P.encodeEvent({ event: 'text_delta', seq: 7, data: { text: 'a' } })).toBe(
      '{"event":"text_delta","seq":7,"data":{"text":"a"}}',
    );
    expect(P.encodeMethod({ method: 'get_history', request_id: 'h' })).toBe(
      '{"method":"get_history","request_id":"h"}',
    );
  });

  it('refuses to encode a value that does not fit its schema, naming the field', () => {
    expect(() => P.encodeEvent({ event: 'turn_start', data: { turn: -1 } })).toThrow(
      'cannot encode `turn_start`: turn: expected u64, got integer -1',
    );
  });
});

describe('decoder', () => {
  it('reads v2 request_id and seq, ignores other unknown top-level keys', () => {
    const d = dm('{"request_id":"a1","method":"hello","params":{"protocol_version":2,"client":"t/1"},"x":1}');
    expect(d).toEqual({
      ok: true,
      value: { method: 'hello', request_id: 'a1', params: { protocol_version: 2, client: 't/1' } },
    });
    expect(de('{"event":"status","seq":4,"data":{"status":"compacting","session_id":"s"}}')).toEqual({
      ok: true,
      value: { event: 'status', seq: 4, data: { status: 'compacting', session_id: 's' } },
    });
  });

  it.each([
    ['not json', /^malformed JSON: expected value at column 1$/],
    [
      '{"method":"run","params":{"input":[{"kind":"text","content":5}]}}',
      /^invalid params for `run`: input\[0\]\.content: expected a string, got integer 5$/,
    ],
    ['{"method":"frobnicate"}', /^unknown method `frobnicate`$/],
    ['\ufeff{"method":"pause"}', /^malformed JSON/],
    ['{"method":"run","request_id":5,"params":{"input":[]}}', /request_id/],
    ['{"method":"list_completions","params":{}}', /kind: missing field/],
    // A literal beyond f64 parses as Infinity, which JSON cannot write: the error says so, not "null".
    [
      '{"method":"hello","params":{"protocol_version":1e400}}',
      /^invalid params for `hello`: protocol_version: expected u32, got a number out of range \(1e400\)$/,
    ],
    [
      '{"method":"hello","params":{"protocol_version":-1e400}}',
      /protocol_version: expected u32, got a number out of range \(-1e400\)$/,
    ],
  ])('rejects %j with one clear line', (line, pattern) => {
    const d = dm(line);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.error).toMatch(pattern);
  });

  it('rejects an unknown event name', () => {
    expect(de('{"event":"telepathy"}')).toEqual({ ok: false, error: 'unknown event `telepathy`' });
  });
});

describe('floats next to a big integer', () => {
  // Found by bench/fuzz (seed -1747062609): `0.000001` came back as `1e-6` once a 2^53 in the same
  // line sent it through the exact writer, which writes floats in Rust's form and JSON.stringify does not.
  it('are written in Rust form either way: a line re-encodes byte for byte whether or not it holds an integer above 2^53', () => {
    const numbers = [
      '1e-6,9007199254740992',
      '1e-6',
      '-1.5e-6',
      '1e+20',
      '1e+20,18446744073709551615',
      '1.0,18446744073709551615',
    ];
    for (const n of numbers) {
      const line = `{"method":"pod_event","params":{"kind":"x","pod_name":"p","v":[${n}]}}`;
      const d = P.decodeMethodLine(line);
      expect([line, d.ok && P.encodeMethod(d.value)]).toEqual([line, line]);
    }
  });

  it("the fuzzer's counterexample: encode, decode, encode is a fixed point", () => {
    for (const v of [[0.000001, 2 ** 53], [0.000001], [1e20], [1e20, 2 ** 53]]) {
      const m = { method: 'pod_event', params: new P.UnknownPodEvent({ '': v, kind: '', pod_name: '' }) };
      const line = P.encodeMethod(m as P.Method);
      const d = P.decodeMethodLine(line);
      expect([v, d.ok && P.encodeMethod(d.value)]).toEqual([v, line]);
    }
  });

  it('a string that only looks like such a number keeps its text', () => {
    const m = {
      method: 'pod_event',
      params: new P.UnknownPodEvent({ t: '0.000001 and 12345678901234567890', kind: 'x', pod_name: 'p' }),
    };
    expect(P.encodeMethod(m as P.Method)).toBe(
      '{"method":"pod_event","params":{"t":"0.000001 and 12345678901234567890","kind":"x","pod_name":"p"}}',
    );
  });

  it("nor does such a string change how the line's numbers are written", () => {
    // Decoded, `100.0` is a float; written without a bigint or a differing number beside it, it is `100`.
    const line = (t: string) => `{"method":"pod_event","params":{"t":"${t}","kind":"x","pod_name":"p","v":100.0}}`;
    const encoded = (t: string) => {
      const d = P.decodeMethodLine(line(t));
      return d.ok ? P.encodeMethod(d.value) : d.error;
    };
    expect(encoded('0.000001 and 12345678901234567890').replace('0.000001 and 12345678901234567890', 'plain')).toBe(
      encoded('plain'),
    );
  });
});

describe('downgradeToV1', () => {
  const v1Names = new Set(P.V1_EVENT_NAMES);

  it('turns a cancelled run into error{internal,"Cancelled"} followed by run_end{finished}', () => {
    expect(P.downgradeToV1({ event: 'run_end', seq: 9, data: { result: 'cancelled' } })).toEqual([
      { event: 'error', data: { code: 'internal', message: 'Cancelled' } },
      { event: 'run_end', data: { result: 'finished' } },
    ]);
  });

  it('drops v2-only events and strips seq/request_id', () => {
    expect(P.downgradeToV1({ event: 'status', data: { status: 'idle', session_id: 's' } })).toEqual([]);
    expect(P.downgradeToV1({ event: 'ack', request_id: 'x', data: { method: 'run' } })).toEqual([]);
    expect(
      P.downgradeToV1({ event: 'notification', seq: 3, data: { source: 'notify', message: 'build finished' } }),
    ).toEqual([]);
    expect(P.downgradeToV1({ event: 'text_delta', seq: 1, data: { text: 'a' } })).toEqual([
      { event: 'text_delta', data: { text: 'a' } },
    ]);
  });

  it('tells a v1 client how many events it lost', () => {
    const [alert] = P.downgradeToV1({ event: 'lagged', data: { from_seq: 10, to_seq: 19 } }, () => 42);
    expect(alert).toEqual({
      event: 'alert',
      data: {
        level: 'warn',
        source: 'pod',
        timestamp_ms: 42,
        message: expect.stringContaining('10 event(s) were not delivered'),
      },
    });
  });

  it('maps v2 error codes to internal', () => {
    expect(
      P.downgradeToV1({ event: 'error', request_id: 'r', data: { code: 'invalid_request', message: 'm' } }),
    ).toEqual([{ event: 'error', data: { code: 'internal', message: 'm' } }]);
  });

  it('never yields a name or enum value outside v1, for every event kind', () => {
    const samples: P.Event[] = [
      {
        event: 'welcome',
        data: {
          protocol_version: 2,
          pod_name: 'p',
          session_id: 's',
          status: 'idle',
          segment_kinds: [],
          pod_event_kinds: [],
        },
      },
      { event: 'completions', data: { kind: 'file_ref', prefix: '', items: [] } },
      { event: 'notification', data: { source: 'notify', message: 'm' } },
      { event: 'tool_progress', data: { id: 'c1', progress: 1, total: 3 } },
      { event: 'lagged', data: { from_seq: 1, to_seq: 1 } },
      { event: 'notification', data: { source: 'pod_event', message: 'Pod `kid` finished a turn.' } },
      { event: 'run_end', data: { result: 'limit_reached' } },
      { event: 'compact_start' },
    ];
    for (const e of samples) {
      for (const out of P.downgradeToV1(e)) {
        expect(v1Names.has(out.event)).toBe(true);
        const line = P.encodeEvent(out);
        expect(line).not.toMatch(/"seq"|"request_id"|cancelled|invalid_request/);
      }
    }
  });
});

describe('the delta fast path', () => {
  it('writes exactly what the schema path writes, for any text (quotes, escapes, control characters, lone surrogates)', async () => {
    const { encodeWith, EVENT_DATA } = P;
    await fuzzAssert(
      'encoder: delta fast path',
      fc.property(
        fc.oneof(fc.string({ unit: 'grapheme' }), anyString),
        fc.oneof(fc.string(), anyString),
        fc.option(fc.nat(), { nil: undefined }),
        (text, id, seq) => {
          const head = seq === undefined ? '' : `"seq":${seq},`;
          expect(P.encodeEvent({ event: 'text_delta', data: { text }, seq })).toBe(
            `{"event":"text_delta",${head}"data":${encodeWith(EVENT_DATA.text_delta, { text })}}`,
          );
          expect(P.encodeEvent({ event: 'tool_call_args_delta', data: { id, json: text }, seq })).toBe(
            `{"event":"tool_call_args_delta",${head}"data":${encodeWith(EVENT_DATA.tool_call_args_delta, { id, json: text })}}`,
          );
        },
      ),
      300,
    );
  });
});

describe('fuzzing the decoder', () => {
  /** A decode result: the value, or one readable line (never a throw). */
  const oneLine = (d: P.Decoded<unknown>) => {
    if (d.ok) return;
    expect(d.error.length).toBeGreaterThan(0);
    expect(d.error).not.toMatch(/[\n\r\u2028\u2029]/);
  };
  /** A decoded method re-encodes to a line that decodes to the same encoding (canonical form). */
  const fixedPoint = (m: P.Method) => {
    const line = P.encodeMethod(m);
    const again = P.decodeMethodLine(line);
    expect(again).toMatchObject({ ok: true });
    if (again.ok) expect(P.encodeMethod(again.value)).toBe(line);
  };

  it('never throws on any line, method or event side; errors are one line', async () => {
    await fuzzAssert(
      'decoder: any line',
      fc.property(fc.oneof(anyString, fc.string({ unit: 'grapheme', maxLength: 80 }), damagedLine), (line) => {
        oneLine(P.decodeMethodLine(line)); // even strings no socket delivers (lone surrogates)
        oneLine(P.decodeEventLine(line));
        const m = P.decodeMethodLine(asWire(line));
        if (m.ok) fixedPoint(m.value);
      }),
      2000,
    );
  });

  it('never throws on envelopes with any method name and any params; errors are one line', async () => {
    await fuzzAssert(
      'decoder: any envelope',
      fc.property(envelopeLike, (value) => {
        const m = P.decodeMethod(value);
        oneLine(m);
        if (m.ok) fixedPoint(m.value);
        oneLine(P.decodeEvent(value));
      }),
      1500,
    );
  });

  it("every method's params: valid ones round-trip byte for byte, damaged ones get one-line errors", async () => {
    const damaged = fc.tuple(methodArb, fc.jsonValue({ maxDepth: 2 }), fc.nat()).map(([m, junk, pick]) => {
      const params = m.params as Record<string, unknown> | undefined;
      if (!params || typeof params !== 'object') return { method: m.method, params: junk };
      const raw = JSON.parse(P.encodeMethod(m)).params as Record<string, unknown>;
      const keys = Object.keys(raw);
      return { method: m.method, params: keys.length ? { ...raw, [keys[pick % keys.length]]: junk } : junk };
    });
    await fuzzAssert(
      'decoder: every method, valid',
      fc.property(methodArb, (m) => {
        const line = P.encodeMethod(m);
        const d = P.decodeMethodLine(line);
        expect(d).toMatchObject({ ok: true, value: { method: m.method } });
        if (d.ok) expect(P.encodeMethod(d.value)).toBe(line);
      }),
      1000,
    );
    await fuzzAssert(
      'decoder: every method, damaged params',
      fc.property(damaged, (value) => {
        const d = P.decodeMethod(value);
        oneLine(d);
        if (d.ok) fixedPoint(d.value);
      }),
      1500,
    );
    // Every method is generated (the arbitraries are typed per method; this checks they all occur).
    const seen = new Set(fc.sample(methodArb, 2000).map((m) => m.method));
    expect([...seen].sort()).toEqual([...P.METHOD_NAMES].sort());
  });
});

describe('decoder errors quote what the client sent on one line', () => {
  it('escapes line breaks and controls, and cuts a very long quote', () => {
    expect(P.decodeMethodLine('{"method":"a\\nb\\u2028c"}')).toEqual({
      ok: false,
      error: 'unknown method `a\\u000ab\\u2028c`',
    });
    const long = P.decodeMethodLine(JSON.stringify({ method: 'x'.repeat(10_000) }));
    expect(long.ok).toBe(false);
    if (!long.ok) expect(long.error.length).toBeLessThanOrEqual(500);
  });
});
