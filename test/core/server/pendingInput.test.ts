import net from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { startTestPod, type TestPod } from '../../support/startTestPod.js';
import { waitUntil } from '../../support/waitUntil.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

/** Completions for kind `slow` that wait until the test lets them go. */
let release: (() => void) | undefined;
const slowCompletions = definePlugin({
  name: 'test:slow-completions',
  apply(host) {
    host.hooks.completeSegment.for('slow').tapPromise(
      'test:slow-completions',
      (items) =>
        new Promise<string[]>((resolve) => {
          release = () => resolve(items);
        }),
    );
  },
});

describe('lines waiting behind a slow handler', () => {
  it('stop the connection reading at about 1 Mi characters; nothing is lost', async () => {
    tp = await startTestPod({ plugins: [...defaultPlugins(), slowCompletions()] });
    const known = new Set(tp.pod.bus.clients);
    const s = net.connect(tp.socket);
    await new Promise((r) => s.once('connect', r));
    let received = '';
    s.on('data', (d) => (received += d));
    await waitUntil(() => tp!.pod.bus.size > known.size, 'the connection');
    const conn = [...tp.pod.bus.clients].find((c) => !known.has(c))! as unknown as {
      pendingInput: number;
      readPaused: boolean;
    };
    known.clear();

    s.write('{"method":"hello","params":{"protocol_version":2,"client":"test/1"}}\n');
    s.write('{"method":"list_completions","params":{"kind":"slow","prefix":""},"request_id":"slow"}\n');
    // 32 MiB of lines the pod must handle after the slow one (v1 hellos: no reply each).
    const filler = `{"method":"hello","params":{"protocol_version":1,"client":"${'x'.repeat(16 * 1024)}"}}\n`;
    for (let i = 0; i < 2048; i++) s.write(filler);
    await waitUntil(() => release !== undefined && conn.readPaused, 'the pod to stop reading');
    expect(conn.pendingInput).toBeGreaterThan(1024 * 1024);
    expect(conn.pendingInput).toBeLessThanOrEqual(1024 * 1024 + 256 * 1024); // what one read brought
    expect(s.writableLength).toBeGreaterThan(16 * 1024 * 1024); // the rest waits on the client's side

    release!();
    s.write('{"method":"get_history","request_id":"last"}\n');
    await waitUntil(() => received.includes('"request_id":"last"'), 'every line to be handled', 120_000);
    expect(received).toContain('"request_id":"slow"');
    s.destroy();
  }, 180_000);
});
