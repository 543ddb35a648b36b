import net from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { LineReader, decodeEventLine, type Event } from '../../../core/protocol/index.js';
import { startTestPod, text, type TestPod } from '../../support/startTestPod.js';
import { waitUntil } from '../../support/waitUntil.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

describe('the queue bound counts what cannot be dropped', () => {
  it('a client that has not yet read a large broadcast still gets its requests served', async () => {
    tp = await startTestPod({ config: { limits: { clientQueueBytes: 64 * 1024 } } });
    const events: Event[] = [];
    const known = new Set(tp.pod.bus.clients);
    const s = net.connect(tp.socket);
    await new Promise((r) => s.once('connect', r));
    const reader = new LineReader({
      onLine: (line) => {
        const d = decodeEventLine(line);
        if (d.ok) events.push(d.value);
      },
      onError: () => undefined,
    });
    s.on('data', (c: Buffer) => reader.push(c));
    s.write('{"method":"hello","params":{"protocol_version":2,"client":"test/1"}}\n');
    await waitUntil(() => events.some((e) => e.event === 'welcome'), 'welcome');
    s.pause(); // reads nothing for now
    const conn = [...tp.pod.bus.clients].find((c) => !known.has(c))!;
    known.clear();

    // Another client's 1 MB input reaches this one as a broadcast (user_message, the echo).
    const other = await tp.connect();
    const ended = other.waitFor((e) => e.event === 'run_end');
    await other.request({ method: 'run', params: { input: [text('z'.repeat(1024 * 1024))] } });
    await ended;
    const before = conn.backlogBytes;
    expect(before).toBeGreaterThan(64 * 1024); // unread, but all of it droppable
    s.write('{"method":"get_history","request_id":"h"}\n');
    await waitUntil(() => conn.backlogBytes > before, 'the answer to be queued');
    s.resume();
    await waitUntil(() => events.some((e) => e.request_id === 'h'), 'the reply');
    expect(events.find((e) => e.request_id === 'h')).toMatchObject({ event: 'history' });
    await other.close();
    s.destroy();
  });
});
