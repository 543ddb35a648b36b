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

describe('an event that cannot be encoded', () => {
  // Replayed: an event longer than a JS string can be threw inside the batch's encoding, so the
  // run's terminal event behind it never left and the pod stayed `running`. Stood in for here by
  // an event the schema refuses (encoding throws the same way).
  const unencodable = { event: 'text_done', data: { text: 5 } } as unknown as Event;

  it('becomes an alert with its seq; the events around it, and the terminal event after it, still go', () => {
    const bus = new EventBus();
    const client = v2Client();
    bus.attach(client.conn);
    bus.broadcast({ event: 'text_delta', data: { text: 'before' } });
    bus.broadcast(unencodable);
    bus.broadcast({ event: 'run_end', data: { result: 'finished' } });
    const lines = client
      .text()
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Event & { seq: number });
    expect(lines.map((l) => [l.seq, l.event])).toEqual([
      [1, 'text_delta'],
      [2, 'alert'],
      [3, 'run_end'],
    ]);
    expect(lines[1].data).toMatchObject({
      level: 'error',
      message: expect.stringMatching(/^text_done \(seq 2\) not sent: it could not be encoded \(/),
    });
  });

  it('as a reply, is an error reply to that client', () => {
    const bus = new EventBus();
    const bufs: Buffer[] = [];
    const conn = { version: 2, sendReply: (b: Buffer) => (bufs.push(b), true) } as unknown as Connection;
    bus.reply(conn, { ...unencodable, request_id: 'h1' } as Event);
    const reply = JSON.parse(Buffer.concat(bufs).toString('utf8')) as Event;
    expect(reply).toMatchObject({
      event: 'error',
      request_id: 'h1',
      data: { code: 'internal', message: expect.stringMatching(/^text_done not sent: it could not be encoded/) },
    });
  });
});
