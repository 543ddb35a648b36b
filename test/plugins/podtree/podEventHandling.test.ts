import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../../client/PodClient.js';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import type { Event } from '../../../core/protocol/index.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { RawClient } from '../../support/rawClient.js';
import { recorder, runEnded, startTestPod, text, type TestPod, treeOf } from '../../support/startTestPod.js';

const pods: TestPod[] = [];
const clients: PodClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const p of pods.splice(0).reverse()) await p.stop();
});

async function pod(...args: Parameters<typeof startTestPod>): Promise<TestPod> {
  const p = await startTestPod(...args);
  pods.push(p);
  return p;
}

async function connect(tp: TestPod, protocol: 1 | 2 = 2): Promise<PodClient> {
  const c = await tp.connect(protocol);
  clients.push(c);
  return c;
}

/** The notification texts committed to a pod's history so far. */
async function notes(c: PodClient): Promise<string[]> {
  const h = await c.request({ method: 'get_history' });
  const items = h.event === 'history' ? (h.data.items as { role?: string; content?: { text: string }[] }[]) : [];
  return items.filter((i) => i.role === 'system').map((i) => i.content![0].text.split('\n')[1]);
}

async function waitForNote(c: PodClient, line: string, timeoutMs = 10_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const all = await notes(c);
    if (all.includes(line)) return all;
    if (Date.now() > deadline) throw new Error(`no "${line}" in ${JSON.stringify(all)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** top (top-level) and mid, a child of top holding `src` (both in this process). */
async function family(plugins = defaultPlugins()) {
  const top = await pod({ name: 'top', files: { 'src/a.ts': 'a' }, plugins });
  const src = path.join(fs.realpathSync(top.dir), 'src');
  const midSocket = path.join(top.runtimeDir, 'mid', 'sock');
  await treeOf(top.pod).reserve('mid', midSocket, [{ target: src, permission: 'write', recursive: true }]);
  // As SpawnPod does: recorded with the secret the child presents with its reports.
  treeOf(top.pod).registry.add({
    pod_name: 'mid',
    socket_path: midSocket,
    scope_delegated: [],
    callback_address: top.socket,
    secret: 'mid-secret',
  });
  const mid = await pod({ dir: top.dir, name: 'mid', adopt: { callback: top.socket, secret: 'mid-secret' } });
  return { top, mid, src };
}

describe('reports from a child reach its parent', () => {
  it("turn_ended only for runs the parent started, rendered into the parent's history", async () => {
    const { top, mid } = await family();
    const topClient = await connect(top);
    const byUser = await connect(mid); // a client named test/1, not the parent
    // Driven the way its parent drives it (hello client `pod/top`): reported.
    const parentLike = await PodClient.connect({ socketPath: mid.socket, clientName: 'pod/top' });
    clients.push(parentLike);
    let ended = runEnded(byUser);
    await parentLike.request({ method: 'run', params: { input: [text('parent turn')] } });
    await ended;
    await waitForNote(topClient, 'Pod `mid` finished a turn.');
    // Driven by someone else: not reported. Reports go out in order, so once the stop is
    // reported, a report of this turn would be there too.
    ended = runEnded(byUser);
    await byUser.request({ method: 'run', params: { input: [text('user turn')] } });
    await ended;
    await mid.stop();
    const all = await waitForNote(topClient, 'Pod `mid` has stopped.');
    expect(all.filter((n) => n === 'Pod `mid` finished a turn.')).toHaveLength(1);
  });

  it('a failed run is reported as errored with its message', async () => {
    const { top } = await family();
    const script = path.join(top.dir, 'fail.json');
    fs.writeFileSync(script, JSON.stringify([{ error: 'upstream 429' }]));
    fs.writeFileSync(
      path.join(top.dir, 'yoi.config.json'),
      JSON.stringify({ model: { provider: 'scripted', script: 'fail.json' } }),
    );
    const src = path.join(fs.realpathSync(top.dir), 'lib');
    const flakySocket = path.join(top.runtimeDir, 'flaky', 'sock');
    await treeOf(top.pod).reserve('flaky', flakySocket, [{ target: src, permission: 'write', recursive: true }]);
    treeOf(top.pod).registry.add({
      pod_name: 'flaky',
      socket_path: flakySocket,
      scope_delegated: [],
      callback_address: top.socket,
      secret: 'flaky-secret',
    });
    const flaky = await pod({ dir: top.dir, name: 'flaky', adopt: { callback: top.socket, secret: 'flaky-secret' } });
    const topClient = await connect(top);
    const c = await connect(flaky);
    const ended = runEnded(c);
    await c.request({ method: 'run', params: { input: [text('go')] } });
    await ended;
    await waitForNote(topClient, 'Pod `flaky` reported an error: upstream 429');
  });

  it('shut_down: the parent forgets the child, takes its scope back and says it stopped', async () => {
    const { top, mid, src } = await family();
    const topClient = await connect(top);
    expect(top.pod.scope.check(path.join(src, 'a.ts'), 'write').ok).toBe(false);
    await mid.stop();
    await waitForNote(topClient, 'Pod `mid` has stopped.');
    expect(treeOf(top.pod).registry.get('mid')).toBeUndefined();
    const lock = JSON.parse(fs.readFileSync(path.join(top.runtimeDir, 'scope.lock'), 'utf8'));
    expect(lock.allocations.map((a: { pod_name: string }) => a.pod_name)).toEqual(['top']);
    expect(top.pod.scope.check(path.join(src, 'a.ts'), 'write').ok).toBe(true);
  });

  it("scope_sub_delegated: the grandchild is recorded and reported further up as the middle pod's delegation", async () => {
    const { top, mid, src } = await family();
    const topClient = await connect(top);
    const midClient = await connect(mid);
    const leaf = { target: path.join(src, 'leaf'), permission: 'write', recursive: true };
    // mid's own child `kid` reports that it spawned `leaf`.
    treeOf(mid.pod).registry.add({
      pod_name: 'kid',
      socket_path: '/run/kid/sock',
      scope_delegated: [],
      callback_address: mid.socket,
      secret: 'kid-secret',
    });
    const raw = await RawClient.connect(mid.socket);
    raw.write('{"method":"hello","params":{"protocol_version":2,"client":"pod/kid","auth":"kid-secret"}}\n');
    raw.write(
      `${JSON.stringify({ method: 'pod_event', request_id: 'k-1', params: { kind: 'scope_sub_delegated', parent_pod: 'kid', sub_pod: 'leaf', sub_socket: '/run/leaf/sock', scope: [leaf], secret: 'leaf-secret' } })}\n`,
    );
    await raw.until((e) => e.event === 'ack');
    raw.destroy();
    await waitForNote(midClient, 'Pod `kid` spawned `leaf` and delegated scope to it.');
    expect(treeOf(mid.pod).registry.get('leaf')).toMatchObject({
      socket_path: '/run/leaf/sock',
      scope_delegated: [leaf],
      via: 'kid',
    });
    await waitForNote(topClient, 'Pod `mid` spawned `leaf` and delegated scope to it.');
    expect(treeOf(top.pod).registry.get('leaf')).toMatchObject({
      socket_path: '/run/leaf/sock',
      via: 'mid',
      callback_address: mid.socket,
    });
    const records = JSON.parse(fs.readFileSync(path.join(top.runtimeDir, 'top', 'spawned_pods.json'), 'utf8'));
    expect(records.map((r: { pod_name: string }) => r.pod_name)).toEqual(['mid', 'leaf']);
    // Their grandchild's secret travelled up too, so a pod that adopts `leaf` can authenticate it.
    expect(records[1].secret).toBe('leaf-secret');
  });

  it('a failing side-effect plugin becomes an alert naming it; the built-in handler still runs', async () => {
    const broken = definePlugin({
      name: 'test:broken',
      apply: (host) =>
        host.hooks.podEvent.for('shut_down').tapPromise('test:broken', async () => {
          throw new Error('registry on fire');
        }),
    });
    const { top, mid } = await family([broken(), ...defaultPlugins()]);
    const topClient = await connect(top);
    const events: Event[] = recorder(topClient);
    await mid.stop();
    await waitForNote(topClient, 'Pod `mid` has stopped.');
    expect(events.filter((e) => e.event === 'alert').map((e) => e.event === 'alert' && e.data.message)).toContain(
      'plugin test:broken failed in podEvent(shut_down): registry on fire',
    );
    expect(treeOf(top.pod).registry.get('mid')).toBeUndefined();
  });
});
