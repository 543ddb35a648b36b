import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { makeProject, recorder, runEnded, text } from '../support/startTestPod.js';
import { startPodProcess } from '../support/runCli.js';

/**
 * SpawnPod records a child in `spawned_pods.json` before starting it. When that write fails (a
 * full disk; here the file's path is taken by a directory, which root cannot write over either),
 * the reservation is released, no child starts, the spawner keeps running, and the same name
 * can be spawned once the disk is writable again: nothing of the failed spawn is left in memory.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const spawnKid = {
  tool_calls: [
    { name: 'SpawnPod', arguments: { name: 'kid', task: 'x', scope: [{ target: 'src', permission: 'write' }] } },
  ],
};

describe('a child SpawnPod cannot record', () => {
  it('is not started, its scope goes back, and the name can be spawned later', async () => {
    const dir = fs.realpathSync(
      makeProject({
        'src/a.ts': 'a\n',
        'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 'script.{pod}.json' } }),
        'script.root.json': JSON.stringify([spawnKid, { text: 'noted' }, spawnKid, { text: 'spawned' }]),
        'script.kid.json': '[]',
      }),
    );
    const run = path.join(dir, 'run');
    const pod = await startPodProcess(['--name', 'root'], { cwd: dir, env: { YOI_RUNTIME_DIR: run } });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    cleanups.push(() => {
      const pid = path.join(run, 'kid', 'pid');
      if (fs.existsSync(pid)) process.kill(Number(fs.readFileSync(pid, 'utf8')), 'SIGKILL');
    });
    const registry = path.join(run, 'root', 'spawned_pods.json');
    fs.mkdirSync(path.join(registry, 'taken'), { recursive: true });
    const allocations = () =>
      (JSON.parse(fs.readFileSync(path.join(run, 'scope.lock'), 'utf8')).allocations as { pod_name: string }[]).map(
        (a) => a.pod_name,
      );

    const c = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/1' });
    cleanups.push(() => c.close());
    const events = recorder(c);
    const results = () =>
      events.filter((e) => e.event === 'tool_result').map((e) => e.data as { summary: string; is_error?: boolean });

    let ended = runEnded(c, 30_000);
    await c.request({ method: 'run', params: { input: [text('spawn')] } });
    expect((await ended).event).toBe('run_end');
    expect(results()).toEqual([
      expect.objectContaining({
        is_error: true,
        summary: expect.stringMatching(
          /^pod `kid` was not started: it could not be recorded in .*spawned_pods\.json \(EISDIR/,
        ),
      }),
    ]);
    // The registry's own temp file (status.json's writer may be mid-rename at any moment).
    expect(fs.readdirSync(path.join(run, 'root')).filter((f) => f.startsWith('.spawned_pods.json.'))).toEqual([]);
    expect(allocations()).toEqual(['root']);
    expect(fs.existsSync(path.join(run, 'kid', 'sock'))).toBe(false);
    expect(fs.existsSync(path.join(run, 'kid', 'pid'))).toBe(false);

    fs.rmSync(registry, { recursive: true });
    ended = runEnded(c, 30_000);
    await c.request({ method: 'run', params: { input: [text('spawn again')] } });
    expect((await ended).event).toBe('run_end');
    expect(results()[1]).toEqual(expect.objectContaining({ summary: expect.stringMatching(/^spawned pod `kid`/) }));
    expect(allocations().sort()).toEqual(['kid', 'root']);
    expect(JSON.parse(fs.readFileSync(registry, 'utf8'))).toEqual([expect.objectContaining({ pod_name: 'kid' })]);
  }, 60_000);
});
