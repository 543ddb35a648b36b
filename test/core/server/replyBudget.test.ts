import net from 'node:net';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { PodClient } from '../../../client/PodClient.js';
import { runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

/**
 * Found flooding a pod with a 6 MB history: 500 clients sent `get_history` and did not read.
 * Each queued its own encoded history (every client within its own bound), the pod grew to
 * 4 GB and answered nobody for a minute. Replies all clients hold unread now share one budget
 * (`limits.replyBufferBytes`): past it a history is refused, before it is encoded, with an
 * error saying so; once the clients read (or go), histories are sent again.
 */

const MiB = 1024 * 1024;
const pods: TestPod[] = [];
const sockets: net.Socket[] = [];
const clients: PodClient[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const c of clients.splice(0)) await c.close();
  for (const p of pods.splice(0)) await p.stop();
});

/** A client that asks for the history and never reads: resolves once connected and sent. */
function nonReader(socketPath: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath, () => {
      s.pause();
      s.write('{"method":"hello","params":{"protocol_version":2}}\n{"method":"get_history","request_id":"h"}\n', () =>
        resolve(s),
      );
    });
    s.once('error', reject);
    sockets.push(s);
  });
}

/** get_history's answer: `history`, or the error's message. */
async function historyOrError(c: PodClient): Promise<string> {
  return c.request({ method: 'get_history' }, 30_000).then(
    (r) => r.event,
    (e: unknown) => (e as Error).message,
  );
}

describe('replies held for all clients share one budget', () => {
  it('clients that do not read take the budget; then a history is refused, saying why, until they go', async () => {
    const tp = await startTestPod({ config: { model: { provider: 'echo' }, limits: { replyBufferBytes: 3 * MiB } } });
    pods.push(tp);
    const c = await tp.connect();
    clients.push(c);
    const ended = runEnded(c, 30_000);
    // The echo provider repeats the input: a history of about 1 MB.
    await c.request({ method: 'run', params: { input: [text('x'.repeat(500_000))] } });
    expect((await ended).event).toBe('run_end');
    expect(await historyOrError(c)).toBe('history');

    for (let i = 0; i < 12; i++) await nonReader(tp.socket);
    // The pod handles each connection's lines as they arrive: ask until the budget is taken.
    let answer = await historyOrError(c);
    for (let i = 0; i < 50 && answer === 'history'; i++) answer = await historyOrError(c);
    expect(answer).toMatch(
      /^internal: history not sent: the pod holds \d+(\.\d+)? MiB of replies its clients have not read \(limits\.replyBufferBytes is 3 MiB\); ask again once they read$/,
    );
    // What the non-readers hold is bounded by the budget plus one history, not one history each.
    const held = (tp.pod.bus as unknown as { heldReplyBytes(): number }).heldReplyBytes();
    expect(held).toBeLessThan(3 * MiB + 1.5 * MiB);

    for (const s of sockets.splice(0)) s.destroy();
    answer = await historyOrError(c);
    for (let i = 0; i < 50 && answer !== 'history'; i++) answer = await historyOrError(c);
    expect(answer).toBe('history');
  });
});
