import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { podTree, podTreeLines } from '../../cli/podTreeListing.js';
import { makeProject } from '../support/startTestPod.js';
import { startPodProcess, yoiAsync } from '../support/runCli.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('yoi pod list', () => {
  it('shows the pod tree a real SpawnPod built, with the scope each pod holds', async () => {
    const scripts = {
      root: [
        {
          tool_calls: [
            {
              name: 'SpawnPod',
              arguments: { name: 'child', task: 'split', scope: [{ target: 'src', permission: 'write' }] },
            },
          ],
        },
        { text: 'root done' },
      ],
      child: [
        {
          tool_calls: [
            {
              name: 'SpawnPod',
              arguments: { name: 'grandchild', task: 'deep', scope: [{ target: 'src/deep', permission: 'write' }] },
            },
          ],
        },
        { text: 'child done' },
      ],
      grandchild: [{ text: 'grandchild done' }],
    };
    const files: Record<string, string> = {
      'src/deep/b.ts': 'b\n',
      'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 'script.{pod}.json' } }),
    };
    for (const [pod, replies] of Object.entries(scripts)) files[`script.${pod}.json`] = JSON.stringify(replies);
    const dir = fs.realpathSync(makeProject(files));
    const run = path.join(dir, 'run');
    const env = { YOI_RUNTIME_DIR: run };
    cleanups.push(() => {
      for (const name of fs.existsSync(run) ? fs.readdirSync(run) : []) {
        try {
          process.kill(Number(fs.readFileSync(path.join(run, name, 'pid'), 'utf8')), 'SIGKILL');
        } catch {
          // not a pod directory, or gone
        }
      }
    });
    const root = await startPodProcess(['--name', 'root'], { cwd: dir, env });
    const client = await PodClient.connect({ socketPath: root.socket, clientName: 'test/1' });
    cleanups.push(() => client.close());
    await client.request({ method: 'run', params: { input: [{ kind: 'text', content: 'organise' }] } });
    // Root learns of the grandchild from the child's scope_sub_delegated report.
    const registry = path.join(run, 'root', 'spawned_pods.json');
    for (
      let i = 0;
      i < 1200 && !(fs.existsSync(registry) && fs.readFileSync(registry, 'utf8').includes('grandchild'));
      i++
    )
      await new Promise((r) => setTimeout(r, 50));
    for (let i = 0; i < 1200 && !fs.existsSync(path.join(run, 'grandchild', 'status.json')); i++)
      await new Promise((r) => setTimeout(r, 50));

    const text = await yoiAsync(['pod', 'list'], { cwd: dir, env });
    expect(text.stderr).toBe('');
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(`^root +\\S+ +pid ${root.child.pid} +scope: write ${dir}$`));
    expect(lines[1]).toMatch(new RegExp(`^└─ child +\\S+ +pid \\d+ +scope: write ${path.join(dir, 'src')}$`));
    expect(lines[2]).toMatch(
      new RegExp(`^   └─ grandchild +\\S+ +pid \\d+ +scope: write ${path.join(dir, 'src', 'deep')}$`),
    );

    const json = JSON.parse((await yoiAsync(['pod', 'list', '--json'], { cwd: dir, env })).stdout) as {
      name: string;
      parent: string | null;
      children: string[];
      scope: { allow: { target: string }[] } | null;
    }[];
    expect(json.map(({ name, parent, children }) => ({ name, parent, children }))).toEqual([
      { name: 'child', parent: 'root', children: ['grandchild'] },
      { name: 'grandchild', parent: 'child', children: [] },
      { name: 'root', parent: null, children: ['child'] },
    ]);
    expect(json.find((p) => p.name === 'grandchild')!.scope!.allow).toEqual([
      { target: path.join(dir, 'src', 'deep'), permission: 'write', recursive: true },
    ]);
  });
});

describe('podTree', () => {
  it('falls back on spawned_pods.json, marks a parent that is gone, and survives damaged files and cycles', () => {
    const base = fs.mkdtempSync(path.join(makeProject(), 'run-'));
    fs.mkdirSync(path.join(base, 'a'));
    fs.writeFileSync(
      path.join(base, 'a', 'spawned_pods.json'),
      JSON.stringify([{ pod_name: 'b', socket_path: '/s/b', scope_delegated: [], callback_address: '/s/a' }]),
    );
    fs.writeFileSync(
      path.join(base, 'scope.lock'),
      JSON.stringify({
        allocations: [
          {
            pod_name: 'c',
            pid: 1,
            socket: '/s/c',
            scope_allow: [{ target: '/p/c', permission: 'read', recursive: false }],
            delegated_from: 'gone',
            scope_deny: [{ target: '/p/c/x', permission: 'read' }],
          },
          { pod_name: 'x', pid: 1, socket: '/s/x', scope_allow: [], delegated_from: 'y' },
          { pod_name: 'y', pid: 1, socket: '/s/y', scope_allow: [], delegated_from: 'x' },
        ],
      }),
    );
    const pod = (name: string) => ({ name, alive: true, state: 'idle', pid: 1, socket: `/s/${name}` });
    const tree = podTree(['a', 'b', 'c', 'x', 'y'].map(pod), base);
    expect(tree.map((e) => [e.name, e.parent, e.children])).toEqual([
      ['a', null, ['b']],
      ['b', 'a', []],
      ['c', 'gone', []],
      ['x', 'y', ['y']],
      ['y', 'x', ['x']],
    ]);
    expect(podTreeLines(tree)).toEqual([
      'a     idle  pid 1  scope: -',
      '└─ b  idle  pid 1  scope: -',
      'c     idle  pid 1  scope: read /p/c (non-recursive); deny read /p/c/x (spawned by gone, not running)',
      'x     idle  pid 1  scope: none',
      '└─ y  idle  pid 1  scope: none',
    ]);
    fs.writeFileSync(path.join(base, 'scope.lock'), '{ not json');
    expect(podTree([pod('c')], base)).toEqual([{ ...pod('c'), parent: null, children: [], scope: null }]);
  });
});
