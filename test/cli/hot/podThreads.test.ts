import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../../client/PodClient.js';
import { POD_NODE_FLAGS } from '../../../core/pod/podNodeFlags.js';
import { startPodProcess } from '../../support/runCli.js';
import { makeProject, runEnded } from '../../support/startTestPod.js';
import { waitUntil } from '../../support/waitUntil.js';

/** Scheduling policy of each thread of `pid` (field 41 of /proc/<pid>/task/<tid>/stat: 0 normal, 5 idle). */
function policies(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
      out.set(Number(task), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]));
    } catch {
      // a thread that ended
    }
  }
  return out;
}

const hasChrt = (() => {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return fs.existsSync('/proc/self/task');
  } catch {
    return false;
  }
})();

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A pod as `yoi` starts one (the shebang's flags: a single-threaded GC), or with Node's defaults. */
async function podWith(name: string, flags: 'yoi' | 'none') {
  const dir = fs.realpathSync(makeProject());
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pod = await startPodProcess(['--name', name], {
    cwd: dir,
    env: { YOI_RUNTIME_DIR: path.join(dir, 'run') },
    nodeFlags: flags === 'yoi' ? POD_NODE_FLAGS : [],
  });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  // A run: its status.json and session log use libuv's pool, which starts then if not before.
  const c = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/threads' });
  cleanups.push(() => c.close());
  const ended = runEnded(c);
  await c.request({ method: 'run', params: { input: [{ kind: 'text', content: 'hi' }] } });
  await ended;
  return { pid: pod.child.pid! };
}

(hasChrt ? describe : describe.skip)("a pod process's threads", () => {
  it("V8's own threads give way (SCHED_IDLE) under a single-threaded GC only; the main thread and libuv's pool keep the user's class", async () => {
    // Both at once: by the time the first pod's change shows, the second's would have too.
    const [yoiPod, plainPod] = await Promise.all([podWith('threads', 'yoi'), podWith('parallel-gc', 'none')]);
    const idle = () => [...policies(yoiPod.pid).values()].filter((p) => p === 5).length;
    await waitUntil(() => idle() >= 4, "V8's worker threads in the idle class", 10_000);
    const all = policies(yoiPod.pid);
    expect(all.get(yoiPod.pid)).toBe(0);
    // libuv's pool (4 threads) was started after the pod took its list: still the normal class.
    expect([...all].filter(([tid, p]) => tid !== yoiPod.pid && p === 0).length).toBeGreaterThanOrEqual(4);
    // Without `--single-threaded-gc` V8's workers also collect garbage: they must not starve.
    expect([...policies(plainPod.pid).values()].filter((p) => p !== 0)).toEqual([]);
  });
});
