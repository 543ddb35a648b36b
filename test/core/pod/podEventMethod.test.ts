import { afterEach, describe, expect, it } from '@jest/globals';
import { RecentRequestIds } from '../../../core/controller/RecentRequestIds.js';
import type { RunEndInfo } from '../../../core/hooks/HookTypes.js';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { RawClient } from '../../support/rawClient.js';
import { runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

const notifications = async (client: Awaited<ReturnType<TestPod['connect']>>) => {
  const h = await client.request({ method: 'get_history' });
  // System items: the echo provider's replies repeat them as assistant text.
  return (h.event === 'history' ? h.data.items : []).filter(
    (i) => (i as { role?: string }).role === 'system' && JSON.stringify(i).includes('[Notification]'),
  );
};

// The core's handling of reports, without the pod tree's check of who sends them (see
// test/plugins/podtree/reportAuthentication.test.ts).
const unchecked = () => startTestPod({ plugins: defaultPlugins({ exclude: ['yoi:spawned-pod-events'] }) });

describe('pod_event requests', () => {
  it('a report repeated with the same request_id is acknowledged every time but applied once', async () => {
    tp = await unchecked();
    const c = await tp.connect();
    const line = '{"method":"pod_event","request_id":"ab12-1","params":{"kind":"turn_ended","pod_name":"kid"}}\n';
    const first = await RawClient.connect(tp.socket);
    first.write('{"method":"hello","params":{"protocol_version":2,"client":"pod/kid"}}\n');
    first.write(line);
    await first.until((e) => e.event === 'ack' && e.request_id === 'ab12-1');
    await runEnded(c); // the notification started a run on the idle pod
    // A retry on a new connection (the first ack was "lost"), and the same id from another pod.
    const retry = await RawClient.connect(tp.socket);
    retry.write('{"method":"hello","params":{"protocol_version":2}}\n');
    retry.write(line);
    retry.write('{"method":"pod_event","request_id":"ab12-1","params":{"kind":"turn_ended","pod_name":"other"}}\n');
    await retry.until(
      (e) =>
        e.event === 'ack' && e.request_id === 'ab12-1' && retry.events.filter((x) => x.event === 'ack').length === 2,
    );
    await c.waitFor((e) => e.event === 'run_end');
    const texts = (await notifications(c)).map((i) => JSON.stringify(i));
    expect(texts.filter((t) => t.includes('Pod `kid` finished a turn.'))).toHaveLength(1);
    expect(texts.filter((t) => t.includes('Pod `other` finished a turn.'))).toHaveLength(1);
    first.destroy();
    retry.destroy();
    await c.close();
  });

  it('reports without a request_id (v1 children) are applied each time', async () => {
    tp = await unchecked();
    const c = await tp.connect();
    const raw = await RawClient.connect(tp.socket);
    raw.write(
      '{"method":"pod_event","params":{"kind":"shut_down","pod_name":"old"}}\n{"method":"pod_event","params":{"kind":"shut_down","pod_name":"old"}}\n',
    );
    const deadline = Date.now() + 10_000;
    let stopped = 0;
    while (stopped < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      stopped = (await notifications(c)).filter((i) => JSON.stringify(i).includes('Pod `old` has stopped.')).length;
    }
    expect(stopped).toBe(2);
    raw.destroy();
    await c.close();
  });

  it('RecentRequestIds is bounded per pod and in pods', () => {
    const ids = new RecentRequestIds(2, 2);
    expect(ids.add('a', '1')).toBe(true);
    expect(ids.add('a', '1')).toBe(false);
    expect(ids.add('a', '2')).toBe(true);
    expect(ids.add('a', '3')).toBe(true); // evicts '1'
    expect(ids.add('a', '1')).toBe(true);
    expect(ids.add('b', '1')).toBe(true);
    expect(ids.add('c', '1')).toBe(true); // evicts pod 'a', the least recently active
    expect(ids.add('b', '1')).toBe(false);
    expect(ids.add('a', '3')).toBe(true);
  });
});

describe('runEnd knows who started a run', () => {
  it('carries the hello client name of the requesting connection, not of others', async () => {
    const ends: RunEndInfo[] = [];
    const probe = definePlugin({
      name: 'test:run-end',
      apply: (host) => host.hooks.runEnd.tapPromise('test:run-end', async (info) => void ends.push(info)),
    });
    tp = await startTestPod({ plugins: [...defaultPlugins(), probe()] });
    const named = await tp.connect(); // hello client "test/1"
    const v1 = await tp.connect(1);
    let ended = runEnded(named);
    await named.request({ method: 'run', params: { input: [text('hi')] } });
    await ended;
    ended = runEnded(named);
    v1.send({ method: 'run', params: { input: [text('hi')] } });
    await ended;
    ended = runEnded(named);
    await named.request({ method: 'notify', params: { message: 'note' } });
    await ended;
    await new Promise((r) => setTimeout(r, 50));
    expect(ends.map((e) => [e.trigger, e.client?.name, e.client?.protocol])).toEqual([
      ['run', 'test/1', 2],
      ['run', undefined, 1],
      ['notify', undefined, undefined],
    ]);
    await named.close();
    await v1.close();
  });
});
