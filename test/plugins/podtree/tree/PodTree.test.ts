import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import type { LockRule } from '../../../../plugins/podtree/tree/ScopeLockSchema.js';
import { startTestPod, type TestPod, treeOf } from '../../../support/startTestPod.js';

const pods: TestPod[] = [];
afterEach(async () => {
  for (const p of pods.splice(0).reverse()) await p.stop();
});

async function pod(...args: Parameters<typeof startTestPod>): Promise<TestPod> {
  const p = await startTestPod(...args);
  pods.push(p);
  return p;
}

const lockOf = (tp: TestPod) =>
  JSON.parse(fs.readFileSync(path.join(tp.runtimeDir, 'scope.lock'), 'utf8')) as {
    allocations: { pod_name: string; delegated_from: string | null; pid: number }[];
  };

describe('the pod tree in core', () => {
  it('a top-level pod registers its scope at start and releases it at stop', async () => {
    const root = await pod({ name: 'root', files: { 'src/a.ts': 'a' } });
    expect(lockOf(root).allocations).toEqual([
      expect.objectContaining({
        pod_name: 'root',
        pid: process.pid,
        socket: root.socket,
        delegated_from: null,
        origin: 'started',
        scope_allow: [{ target: fs.realpathSync(root.dir), permission: 'write', recursive: true }],
      }),
    ]);
    await root.stop();
    expect(lockOf(root).allocations).toEqual([]);
    expect(fs.existsSync(path.join(root.runtimeDir, 'root'))).toBe(false);
  });

  it('a child gets exactly the delegated scope; the parent cannot write there until the child is forgotten', async () => {
    const root = await pod({
      name: 'root',
      files: { 'src/a.ts': 'a', 'docs/d.md': 'd' },
      config: { scope: { deny: [{ target: 'src/secret', permission: 'write' }] } },
    });
    const src = path.join(fs.realpathSync(root.dir), 'src');
    const tree = treeOf(root.pod);
    const rules: LockRule[] = [{ target: src, permission: 'write', recursive: true }];
    await tree.reserve('kid', path.join(root.runtimeDir, 'kid', 'sock'), rules);
    expect(root.pod.scope.check(path.join(src, 'a.ts'), 'write')).toMatchObject({
      ok: false,
      reason: "read-only: outside the pod's write scope",
    });
    expect(root.pod.scope.check(path.join(root.dir, 'docs/d.md'), 'write').ok).toBe(true);

    const kid = await pod({
      dir: root.dir,
      name: 'kid',
      adopt: { callback: root.socket, instruction: 'Only touch src.' },
    });
    expect(treeOf(kid.pod).parentName).toBe('root');
    expect(kid.pod.scope.check(path.join(src, 'a.ts'), 'write').ok).toBe(true);
    // Not widened by the project config (which grants the whole project): only what was delegated.
    expect(kid.pod.scope.check(path.join(root.dir, 'docs/d.md'), 'read').ok).toBe(false);
    // The spawner's deny rules inside the region go with it.
    expect(kid.pod.scope.check(path.join(src, 'secret/x'), 'write').ok).toBe(false);
    expect(kid.pod.greeting.scope_summary).toBe(`Readable:\n  - ${src}\nWritable:\n  - ${src}`);
    expect(kid.pod.runtime.systemPrompt.endsWith('\n\nOnly touch src.')).toBe(true);
    expect(lockOf(root).allocations.find((a) => a.pod_name === 'kid')).toMatchObject({
      pid: process.pid,
      delegated_from: 'root',
    });

    await tree.forget('kid');
    expect(root.pod.scope.check(path.join(src, 'a.ts'), 'write').ok).toBe(true);
  });

  it('a pod started with --adopt but no reservation refuses to start, leaving nothing behind', async () => {
    const root = await pod({ name: 'root' });
    await expect(startTestPod({ dir: root.dir, name: 'stray', adopt: { callback: root.socket } })).rejects.toThrow(
      'no scope is reserved for pod `stray`: pods started with --adopt are started by SpawnPod',
    );
    expect(fs.existsSync(path.join(root.runtimeDir, 'stray'))).toBe(false);
    expect(lockOf(root).allocations.map((a) => a.pod_name)).toEqual(['root']);
  });

  it('the registry outlives a clean stop and comes back (re-adopted, re-locked) at the next start', async () => {
    const root = await pod({ name: 'root', files: { 'src/a.ts': 'a' } });
    const src = path.join(fs.realpathSync(root.dir), 'src');
    const kidSocket = path.join(root.runtimeDir, 'kid', 'sock');
    await treeOf(root.pod).reserve('kid', kidSocket, [{ target: src, permission: 'write', recursive: true }]);
    const kid = await pod({ dir: root.dir, name: 'kid', adopt: { callback: root.socket } });
    treeOf(root.pod).registry.add({
      pod_name: 'kid',
      socket_path: kidSocket,
      scope_delegated: [],
      callback_address: root.socket,
    });
    await root.stop();
    expect(fs.readdirSync(path.join(root.runtimeDir, 'root'))).toEqual(['spawned_pods.json']);
    expect(lockOf(root).allocations.find((a) => a.pod_name === 'kid')?.delegated_from).toBeNull();

    const again = await pod({ dir: root.dir, name: 'root' });
    expect(again.pod.notes).toContain(
      `restored 1 spawned pod(s) from ${path.join(root.runtimeDir, 'root', 'spawned_pods.json')}`,
    );
    expect(treeOf(again.pod).registry.get('kid')?.socket_path).toBe(kidSocket);
    expect(lockOf(again).allocations.find((a) => a.pod_name === 'kid')?.delegated_from).toBe('root');
    expect(again.pod.scope.check(path.join(src, 'a.ts'), 'write').ok).toBe(false);
    await kid.stop();
  });
});
