import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterEach, describe, expect, it } from '@jest/globals';
import type { Connection } from '../../../core/server/Connection.js';
import type { InputBudget } from '../../../core/server/InputBudget.js';
import { RawClient } from '../../support/rawClient.js';
import { startTestPod, type TestPod } from '../../support/startTestPod.js';
import { waitUntil } from '../../support/waitUntil.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

describe('a closed connection releases everything', () => {
  it('its queued replies, its unfinished line (back to the pod budget) and the connection itself', async () => {
    tp = await startTestPod({
      config: { limits: { clientQueueBytes: 64 * 1024, inputBufferBytes: 32 * 1024 * 1024 } },
    });
    const budget = (tp.pod as unknown as { server: { inputBudget: InputBudget } }).server.inputBudget;
    const watcher = await RawClient.connect(tp.socket);
    watcher.write(`${JSON.stringify({ method: 'notify', params: { message: 'x'.repeat(256 * 1024) } })}\n`);
    await watcher.until((e) => e.event === 'run_end');

    const before = new Set(tp.pod.bus.clients);
    const connect = async () => {
      const known = new Set(tp!.pod.bus.clients);
      const s = net.connect(tp!.socket);
      s.on('error', () => undefined);
      await new Promise((r) => s.once('connect', r));
      s.pause(); // never reads
      await waitUntil(() => tp!.pod.bus.size > known.size, 'the connection');
      const conn = [...tp!.pod.bus.clients].find((c) => !known.has(c))!;
      known.clear(); // the socket's listener shares this scope: keep no other connection alive
      return { s, conn };
    };
    // One client asks for far more than it reads, another holds half a line.
    const reader = await connect();
    for (let i = 0; i < 200; i++) reader.s.write('{"method":"get_history"}\n');
    const holder = await connect();
    holder.s.write(`{"method":"notify","params":{"message":"${'y'.repeat(512 * 1024)}`);
    await waitUntil(
      () => budget.usedBytes >= 512 * 1024 && reader.conn.backlogBytes > 64 * 1024,
      'the backlog and the unfinished line',
      10_000,
    );
    const refs = [new WeakRef<Connection>(reader.conn), new WeakRef<Connection>(holder.conn)];
    reader.conn = holder.conn = undefined as unknown as Connection;

    reader.s.destroy();
    holder.s.destroy();
    await waitUntil(() => tp!.pod.bus.size === before.size, 'the close', 10_000);
    expect(budget.usedBytes).toBe(0);
    await waitUntil(
      () => {
        gc();
        return refs.every((r) => r.deref() === undefined);
      },
      'the connections to be collected',
      10_000,
    );

    // The pod is unaffected.
    watcher.write('{"method":"get_history"}\n');
    await watcher.until((e) => e.event === 'history');
    watcher.destroy();
  });
});
