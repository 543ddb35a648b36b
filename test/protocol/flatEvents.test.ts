import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import * as P from '../../core/protocol/index.js';
import { decodeFlatData } from '../../core/protocol/decodeFlatData.js';
import { encodeFlatEvent } from '../../core/protocol/encodeFlatEvent.js';
import { FLAT_EVENT_FIELDS } from '../../core/protocol/flatEventFields.js';
import { fuzzAssert } from '../support/fuzzRuns.js';
import { anyString } from '../support/protocolArbitraries.js';

const flat = Object.entries(FLAT_EVENT_FIELDS) as [P.EventName, ReadonlyArray<readonly [string, unknown]>][];

/** The data schema's object (a `struct` is a pipe into `z.object`). */
const shapeOf = (name: P.EventName) =>
  (P.EVENT_DATA[name] as unknown as { out: { shape: Record<string, unknown> } }).out.shape;

/** What the schema path writes: the envelope by `JSON.stringify`, the data by its schema; or the error it throws. */
function schemaPath(e: { event: P.EventName; data?: unknown; request_id?: unknown; seq?: number }): string | Error {
  try {
    const head: Record<string, unknown> = { event: e.event };
    if (e.request_id !== undefined) head.request_id = e.request_id;
    if (e.seq !== undefined) head.seq = e.seq;
    const data = P.encodeWith(P.EVENT_DATA[e.event] as never, e.data as never);
    return `${P.stringifyWellFormed(head).slice(0, -1)},"data":${data}}`;
  } catch (err) {
    return err as Error;
  }
}

/** Values of every kind a field may meet, right or wrong for it. */
const anyValue = fc.oneof(
  anyString,
  fc.nat(),
  fc.constantFrom(
    undefined,
    null,
    true,
    false,
    -1,
    -0,
    1.5,
    2 ** 53,
    Number.NaN,
    7n,
    '',
    'finished',
    'paused',
    'running',
    'idle',
    'cancelled',
    'internal',
    'notify',
    'pod_event',
    { finished: null },
    [],
    {},
  ),
);

/** A flat event's name and data: each field present or not, of any kind, maybe an unknown key. */
const flatData = fc
  .tuple(
    fc.constantFrom(...flat),
    fc.array(anyValue, { minLength: 4, maxLength: 4 }),
    fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
    fc.boolean(),
  )
  .map(([[name, fields], values, present, extra]) => {
    const data: Record<string, unknown> = {};
    fields.forEach(([f], i) => {
      if (present[i]) data[f] = values[i];
    });
    if (extra) data.unknown_field = 'x';
    return { name, data };
  });

describe('flat events written and read without the schema pass', () => {
  it('name the schema’s fields in the schema’s order', () => {
    for (const [name, fields] of flat) expect(fields.map(([f]) => f)).toEqual(Object.keys(shapeOf(name)));
  });

  it('are written by the fast path when their fields are plain', () => {
    const samples = [
      { event: 'status', seq: 3, data: { status: 'idle', session_id: 's' } },
      { event: 'ack', request_id: 'r1', data: { method: 'run' } },
      { event: 'turn_end', seq: 9, data: { turn: 2, result: 'finished' } },
      { event: 'usage', data: { input_tokens: 79, output_tokens: null } },
      { event: 'run_end', data: { result: 'cancelled' } },
      { event: 'tool_result', data: { id: 'c', summary: 'ok', is_error: false } },
    ] as P.Event[];
    for (const e of samples) {
      const line = encodeFlatEvent(e, e.seq);
      expect(line).toBeDefined();
      expect(line).toBe(schemaPath(e));
    }
    expect(encodeFlatEvent({ event: 'usage', data: { input_tokens: 1 } } as P.Event, undefined)).toBe(
      '{"event":"usage","data":{"input_tokens":1,"output_tokens":null}}',
    );
  });

  it('leave to the schema path what is not plain (the array form, a bigint, a wrong kind)', () => {
    const odd = [
      { event: 'turn_start', data: [4] },
      { event: 'turn_start', data: { turn: 2n ** 60n } },
      { event: 'run_end', data: { result: { finished: null } } },
      { event: 'status', data: { status: 'asleep', session_id: 's' } },
    ] as unknown as P.Event[];
    for (const e of odd) expect(encodeFlatEvent(e, undefined)).toBeUndefined();
    expect(P.encodeEvent(odd[0])).toBe('{"event":"turn_start","data":{"turn":4}}');
    expect(P.encodeEvent(odd[2])).toBe('{"event":"run_end","data":{"result":"finished"}}');
    expect(() => P.encodeEvent(odd[3])).toThrow(P.ProtocolEncodeError);
  });

  it('write exactly what the schema path writes, or fail as it fails, for any data', async () => {
    await fuzzAssert(
      'encoder: flat events',
      fc.property(
        flatData,
        fc.option(fc.oneof(anyString, fc.nat()), { nil: undefined }),
        fc.option(fc.nat(), { nil: undefined }),
        ({ name, data }, requestId, seq) => {
          const e = { event: name, data, request_id: requestId, seq } as unknown as P.Event;
          const expected = schemaPath({ event: name, data, request_id: requestId, seq });
          if (expected instanceof Error) expect(() => P.encodeEvent(e)).toThrow();
          else expect(P.encodeEvent(e)).toBe(expected);
        },
      ),
      2000,
    );
  });

  it('are read by the fast path when their fields are plain, as the schema path reads them', () => {
    const line = '{"event":"tool_result","seq":4,"data":{"id":"c","summary":"ok","output":null,"extra":1}}';
    const d = P.decodeEventLine(line);
    expect(d).toStrictEqual({
      ok: true,
      value: { event: 'tool_result', seq: 4, data: { id: 'c', summary: 'ok', output: undefined, is_error: false } },
    });
    expect(decodeFlatData('usage', { output_tokens: 3 })).toStrictEqual({ input_tokens: null, output_tokens: 3 });
    expect(decodeFlatData('turn_start', { turn: 2n })).toBeUndefined();
    expect(decodeFlatData('run_end', { result: { finished: null } })).toBeUndefined();
    expect(P.decodeEvent({ event: 'run_end', data: { result: { finished: null } } })).toStrictEqual({
      ok: true,
      value: { event: 'run_end', data: { result: 'finished' } },
    });
  });

  it('read exactly what the schema path reads, or refuse with its error, for any data', async () => {
    await fuzzAssert(
      'decoder: flat events',
      fc.property(flatData, ({ name, data }) => {
        const got = P.decodeEvent({ event: name, seq: 1, data });
        const schema = P.decodeWith(P.EVENT_DATA[name] as never, data);
        if (!schema.ok) {
          expect(got.ok).toBe(false);
          if (!got.ok) expect(got.error).toBe(`invalid data for \`${name}\`: ${schema.error}`);
          return;
        }
        expect(got).toStrictEqual({ ok: true, value: { event: name, seq: 1, data: schema.value } });
        if (got.ok) expect(Object.keys(got.value.data as object)).toEqual(Object.keys(schema.value as object));
      }),
      2000,
    );
  });
});
