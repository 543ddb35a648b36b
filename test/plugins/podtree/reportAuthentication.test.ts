import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { RawClient } from '../../support/rawClient.js';
import { startTestPod, type TestPod, treeOf } from '../../support/startTestPod.js';

// Replays of the attack where any local client sent `pod_event` for a live child: a forged
// `shut_down` released a running child's region (another pod then got it), a forged
// `scope_sub_delegated` made StopPod stop an unrelated pod. Only the real child may report.
const pods: TestPod[] = [];
afterEach(async () => {
  for (const p of pods.splice(0).reverse()) await p.stop();
});

async function parentWithChild() {
  const top = await startTestPod({ name: 'top', files: { 'src/a.ts': 'a' } });
  pods.push(top);
  const src = path.join(fs.realpathSync(top.dir), 'src');
  const kidSocket = path.join(top.runtimeDir, 'kid', 'sock');
  await treeOf(top.pod).reserve('kid', kidSocket, [{ target: src, permission: 'write', recursive: true }]);
  treeOf(top.pod).registry.add({
    pod_name: 'kid',
    socket_path: kidSocket,
    scope_delegated: [],
    callback_address: top.socket,
    secret: 's3cret-kid',
  });
  return { top, src };
}

async function report(tp: TestPod, hello: Record<string, unknown>, event: Record<string, unknown>) {
  const raw = await RawClient.connect(tp.socket);
  raw.write(`${JSON.stringify({ method: 'hello', params: { protocol_version: 2, ...hello } })}\n`);
  raw.write(`${JSON.stringify({ method: 'pod_event', request_id: 'r-1', params: event })}\n`);
  const answer = await raw.until((e) => e.request_id === 'r-1');
  raw.destroy();
  return answer;
}

const allocations = (tp: TestPod) =>
  (
    JSON.parse(fs.readFileSync(path.join(tp.runtimeDir, 'scope.lock'), 'utf8')).allocations as { pod_name: string }[]
  ).map((a) => a.pod_name);

describe('only the real child reports for itself', () => {
  it('a forged shut_down (no credential, or a wrong one) is refused and changes nothing', async () => {
    const { top, src } = await parentWithChild();
    for (const hello of [
      { client: 'pod/kid' },
      { client: 'pod/kid', auth: 'guess' },
      { client: 'pod/kid', auth: 's3cret-kid-but-longer' },
    ]) {
      const answer = await report(top, hello, { kind: 'shut_down', pod_name: 'kid' });
      expect(answer).toMatchObject({ event: 'error', data: { code: 'invalid_request' } });
      expect((answer as { data: { message: string } }).data.message).toMatch(/did not authenticate as pod `kid`/);
    }
    expect(treeOf(top.pod).registry.get('kid')).toBeDefined();
    expect(allocations(top)).toEqual(['top', 'kid']);
    // The region is still delegated: the parent's own tools still cannot write there.
    expect(top.pod.scope.check(path.join(src, 'a.ts'), 'write').ok).toBe(false);
  });

  it('a child cannot report for another pod, nor for a pod this pod never spawned', async () => {
    const { top } = await parentWithChild();
    const other = await report(top, { auth: 's3cret-kid' }, { kind: 'shut_down', pod_name: 'top' });
    expect((other as { data: { message: string } }).data.message).toMatch(/`top` is not a pod this pod spawned/);
    const stranger = await report(
      top,
      {},
      {
        kind: 'scope_sub_delegated',
        parent_pod: 'nobody',
        sub_pod: 'victim',
        sub_socket: '/tmp/victim/sock',
        scope: [],
      },
    );
    expect((stranger as { data: { message: string } }).data.message).toMatch(/`nobody` is not a pod this pod spawned/);
    expect(treeOf(top.pod).registry.get('victim')).toBeUndefined();
    expect(allocations(top)).toEqual(['top', 'kid']);
  });

  it('a pod_name with a line break in it (even from the authenticated child) is refused in one line; the pod keeps serving', async () => {
    const { top } = await parentWithChild();
    for (const pod_name of ['kid\nforged line', 'x\r\ny', 'a\u2028b']) {
      const answer = (await report(
        top,
        { client: 'pod/kid', auth: 's3cret-kid' },
        { kind: 'shut_down', pod_name },
      )) as { event: string; data: { message: string } };
      expect(answer).toMatchObject({ event: 'error', data: { code: 'invalid_request' } });
      expect(answer.data.message).toMatch(/^pod_event refused: `.*` is not a pod this pod spawned or was told about$/);
      expect(answer.data.message).not.toMatch(/[\n\r\u2028\u2029]/);
    }
    expect(allocations(top)).toEqual(['top', 'kid']);
    const heard = await report(top, { client: 'pod/kid', auth: 's3cret-kid' }, { kind: 'turn_ended', pod_name: 'kid' });
    expect(heard).toMatchObject({ event: 'ack' });
  });

  it('the child with its secret is heard: its shut_down releases the region', async () => {
    const { top, src } = await parentWithChild();
    const answer = await report(top, { client: 'pod/kid', auth: 's3cret-kid' }, { kind: 'shut_down', pod_name: 'kid' });
    expect(answer).toMatchObject({ event: 'ack' });
    await top.pod.runtime.work.settled();
    expect(treeOf(top.pod).registry.get('kid')).toBeUndefined();
    expect(allocations(top)).toEqual(['top']);
    expect(top.pod.scope.check(path.join(src, 'a.ts'), 'write').ok).toBe(true);
  });
});
