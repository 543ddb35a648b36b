import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodEventOutbox } from '../../../plugins/podtree/PodEventOutbox.js';
import { makeProject, recorder, runEnded, startTestPod, text } from '../../support/startTestPod.js';
import { startV1Pod, type V1Pod } from '../../support/v1Pod.js';

/** The pod tools and the child's outbox against a v1-only pod (the stand-in for the original). */

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function v1(): Promise<V1Pod> {
  const pod = await startV1Pod();
  cleanups.push(() => pod.close());
  return pod;
}

describe('pod tools against a v1 pod', () => {
  it('SendToPod starts its run and ReadPodOutput reads its reply', async () => {
    const legacy = await v1();
    const script = [
      { tool_calls: [{ name: 'SendToPod', arguments: { name: 'legacy', message: 'do the thing' } }] },
      { tool_calls: [{ name: 'ReadPodOutput', arguments: { name: 'legacy' } }] },
      { text: 'done' },
    ];
    const dir = makeProject({
      's.json': JSON.stringify(script),
      'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 's.json' } }),
    });
    // The parent knows the v1 pod from its registry (as a child it spawned would be).
    fs.mkdirSync(path.join(dir, 'run', 'test'), { recursive: true, mode: 0o700 });
    fs.writeFileSync(
      path.join(dir, 'run', 'test', 'spawned_pods.json'),
      JSON.stringify([
        {
          pod_name: 'legacy',
          socket_path: legacy.socket,
          scope_delegated: [],
          callback_address: path.join(dir, 'run', 'test', 'sock'),
        },
      ]),
    );
    const pod = await startTestPod({ dir });
    cleanups.push(() => pod.stop());
    const client = await pod.connect();
    cleanups.push(() => client.close());
    const events = recorder(client);
    const ended = runEnded(client, 30_000);
    await client.request({ method: 'run', params: { input: [text('delegate')] } });
    expect(await ended).toMatchObject({ event: 'run_end', data: { result: 'finished' } });
    const results = events
      .filter((e) => e.event === 'tool_result')
      .map((e) => (e.event === 'tool_result' ? e.data : undefined));
    expect(results[0]).toMatchObject({ summary: 'sent message to `legacy`', is_error: false });
    expect(results[1]).toMatchObject({
      summary: 'pod `legacy` is reachable (a v1 pod, which does not report its state): 1 new assistant message',
      output: expect.stringContaining('v1 says: do the thing'),
    });
    expect(legacy.received.filter((l) => l.startsWith('{"method":"run"'))).toEqual([
      '{"method":"run","params":{"input":[{"kind":"text","content":"do the thing"}]}}',
    ]);
  });
});

describe("a child's outbox with a v1 parent", () => {
  it('sends each report once, as the original delivered them, and does not wait for acks', async () => {
    const parent = await v1();
    const outbox = new PodEventOutbox({ socketPath: parent.socket, clientName: 'pod/child', log: () => undefined });
    cleanups.push(() => outbox.close());
    outbox.send({ kind: 'turn_ended', pod_name: 'child' });
    outbox.send({ kind: 'shut_down', pod_name: 'child' });
    expect(await outbox.drain(20_000)).toBe(true);
    await parent.receivedCount(3); // hello and the two reports
    const reports = parent.received
      .filter((l) => l.includes('"pod_event"'))
      .map((l) => JSON.parse(l) as { params: unknown });
    expect(reports.map((r) => r.params)).toEqual([
      { kind: 'turn_ended', pod_name: 'child' },
      { kind: 'shut_down', pod_name: 'child' },
    ]);
  });
});
