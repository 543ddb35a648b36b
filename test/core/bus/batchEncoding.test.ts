import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { EventBus } from '../../../core/bus/EventBus.js';
import { encodeEvent, type Event } from '../../../core/protocol/index.js';
import { ExtensionEvent, encodeExtensionEvent } from '../../../core/protocol/ExtensionEvent.js';
import type { Connection } from '../../../core/server/Connection.js';
import { fuzzAssert } from '../../support/fuzzRuns.js';
import { anyString } from '../../support/protocolArbitraries.js';

/** A v2 connection that keeps what the bus queues for it. */
function v2Client() {
  const bufs: Buffer[] = [];
  const conn = { version: 2, send: (buf: Buffer) => bufs.push(buf) } as unknown as Connection;
  return { conn, text: () => Buffer.concat(bufs).toString('utf8') };
}

const droppable = fc.oneof(
  fc
    .oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'grapheme', minLength: 60, maxLength: 200 }),
      anyString,
      fc.constantFrom('tok ', 'a"b', 'x\\y', '\n', '😀', 'ß€', 'a'.repeat(64) + 'é'),
    )
    .map((text): Event => ({ event: 'text_delta', data: { text } })),
  fc.string().map((text): Event => ({ event: 'text_delta', request_id: 'r1', data: { text } })),
  fc.tuple(fc.string(), anyString).map(([id, json]): Event => ({ event: 'tool_call_args_delta', data: { id, json } })),
  fc.string().map((text) => new ExtensionEvent('test.note', { text }, true)),
);

describe("a batch's encoding", () => {
  it('is every event encoded on its own, with its seq, one line each, in order', async () => {
    await fuzzAssert(
      'bus: batch encoding',
      fc.property(fc.array(droppable, { minLength: 1, maxLength: 40 }), (events) => {
        const bus = new EventBus();
        const client = v2Client();
        bus.attach(client.conn);
        const seqs = events.map((e) => bus.broadcast(e));
        bus.flush();
        const expected = events.map((e, i) =>
          e instanceof ExtensionEvent ? encodeExtensionEvent(e, seqs[i]) : encodeEvent(e, seqs[i]),
        );
        expect(client.text()).toBe(expected.map((l) => `${l}\n`).join(''));
      }),
      200,
    );
  });

  it('a plain delta is the line encodeEvent writes, byte for byte', () => {
    const bus = new EventBus();
    const client = v2Client();
    bus.attach(client.conn);
    bus.broadcast({ event: 'text_delta', data: { text: 'hello ' } });
    bus.broadcast({ event: 'text_delta', data: { text: 'wörld "quoted"' } });
    bus.flush();
    expect(client.text()).toBe(
      '{"event":"text_delta","seq":1,"data":{"text":"hello "}}\n' +
        '{"event":"text_delta","seq":2,"data":{"text":"wörld \\"quoted\\""}}\n',
    );
  });
});
