import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { makeProject, recorder, runEnded, text } from '../support/startTestPod.js';
import { startPodProcess, yoi } from '../support/runCli.js';

/**
 * Replays `SpawnPod{name:"scope.lock"}`, which once deleted the machine-wide lock (the failed
 * child's directory was removed, and it was the lock), and the same names on the command line.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const RESERVED = ['scope.lock', 'Scope.Lock', 'scope.lock.lock', '..', '.hidden', 'sock', 'status.json', 'a/../../x'];

function project(script: unknown[]) {
  const dir = fs.realpathSync(
    makeProject({
      'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 'script.{pod}.json' } }),
      'script.root.json': JSON.stringify(script),
    }),
  );
  const run = path.join(dir, 'run');
  return { dir, run, env: { YOI_RUNTIME_DIR: run }, lock: () => fs.readFileSync(path.join(run, 'scope.lock'), 'utf8') };
}

/**
 * The runtime base as the root pod left it: its directory and scope.lock, and the Bash tool's
 * probe cache where bwrap works here (written by the root pod's start).
 */
function runtimeFiles(run: string): string[] {
  const files = fs.readdirSync(run).sort();
  expect(files.filter((f) => f !== '.bwrap-probe.json')).toEqual(['root', 'scope.lock']);
  return files;
}

describe('pod names', () => {
  it('SpawnPod with a reserved or malformed name is refused; scope.lock is intact and the pod keeps running', async () => {
    const calls = RESERVED.map((name) => ({
      tool_calls: [
        { name: 'SpawnPod', arguments: { name, task: 'x', scope: [{ target: 'src', permission: 'write' }] } },
      ],
    }));
    const p = project([...calls, { text: 'still here' }]);
    const pod = await startPodProcess(['--name', 'root'], { cwd: p.dir, env: p.env });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const before = p.lock();
    expect(JSON.parse(before).allocations.map((a: { pod_name: string }) => a.pod_name)).toEqual(['root']);
    const files = runtimeFiles(p.run);

    const c = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/1' });
    cleanups.push(() => c.close());
    const events = recorder(c);
    const ended = runEnded(c, 30_000);
    await c.request({ method: 'run', params: { input: [text('spawn them')] } });
    expect((await ended).event).toBe('run_end');

    const results = events
      .filter((e) => e.event === 'tool_result')
      .map((e) => e.data as { summary: string; is_error?: boolean });
    expect(results).toHaveLength(RESERVED.length);
    results.forEach((r, i) => {
      expect(r.is_error).toBe(true);
      expect(r.summary).toMatch(
        new RegExp(
          `^Invalid argument: name: invalid pod name ${JSON.stringify(RESERVED[i]).replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: `,
        ),
      );
    });
    expect(events.some((e) => e.event === 'text_done' && (e.data as { text: string }).text === 'still here')).toBe(
      true,
    );
    expect(p.lock()).toBe(before);
    expect(runtimeFiles(p.run)).toEqual(files);
  });

  it('`--name` and `--pod` follow the same rule: one line, nothing touched', async () => {
    const p = project([]);
    const pod = await startPodProcess(['--name', 'root'], { cwd: p.dir, env: p.env });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const before = p.lock();
    const files = runtimeFiles(p.run);
    const runs = [
      ['pod', 'start', '--name', 'scope.lock'],
      ['pod', 'start', '--name', 'scope.lock', '--detach'],
      ['pod', 'start', '--name', 'scope.lock', '--detach', '--socket', path.join(p.dir, 's.sock')],
      ['send', '--pod', 'scope.lock', 'hi'],
      ['pod', 'stop', '--pod', 'Scope.Lock'],
      ['pod', 'status', '--pod', '..'],
    ];
    for (const args of runs) {
      const r = yoi(args, { cwd: p.dir, env: p.env });
      const name = args[args.indexOf(args.includes('--name') ? '--name' : '--pod') + 1];
      expect([args.join(' '), r.status]).toEqual([args.join(' '), 1]);
      expect(r.stderr).toMatch(new RegExp(`^yoi: invalid pod name "${name.replace(/\./g, '\\.')}": [^\\n]+\\n$`));
    }
    expect(p.lock()).toBe(before);
    expect(runtimeFiles(p.run)).toEqual(files);
    // A config naming the pod so is refused the same way.
    fs.writeFileSync(path.join(p.dir, 'yoi.config.json'), JSON.stringify({ name: 'scope.lock' }));
    const r = yoi(['pod', 'start'], { cwd: p.dir, env: p.env });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      'yoi: yoi.config.json: name: invalid pod name "scope.lock": reserved for yoi\'s runtime files [YOI_ERR_CONFIG]\n',
    );
    expect(p.lock()).toBe(before);
  });
});
