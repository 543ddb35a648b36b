import { afterEach, describe, expect, it } from '@jest/globals';
import { PodClient } from '../../../client/PodClient.js';
import { makeProject } from '../../support/startTestPod.js';
import { startPodProcess, yoiAsync } from '../../support/runCli.js';

/**
 * Found by a tester: `yoi pod stop` from another terminal made a running `yoi send` say "the
 * run was cancelled": a stopping pod cancels its run (`run_end{cancelled}`) and then says
 * `shutdown`, which send no longer read.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A pod process whose run waits a minute for its model, and `yoi` against it. */
async function slowPod() {
  const dir = makeProject({
    'yoi.config.json': JSON.stringify({ model: { provider: 'scripted', script: 'script.json' } }),
    'script.json': JSON.stringify([{ text: 'late', delay_ms: 60_000 }]),
  });
  const env = { YOI_RUNTIME_DIR: `${dir}/run` };
  const pod = await startPodProcess(['--name', 'slow'], { cwd: dir, env });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  const cli = (args: string[]) => yoiAsync(args, { cwd: dir, env });
  return { socket: pod.socket, cli };
}

/** Starts `yoi send`; resolves once its run is running, with the command's end (wrapped: not awaited). */
async function sending({ socket, cli }: Awaited<ReturnType<typeof slowPod>>) {
  const watcher = await PodClient.connect({ socketPath: socket, clientName: 'test/watch' });
  const running = watcher.waitFor((e) => e.event === 'user_message');
  const send = cli(['send', '--pod', 'slow', 'take your time']);
  await Promise.race([running, send.then((r) => Promise.reject(new Error(`send ended first: ${r.stderr}`)))]);
  await watcher.close();
  return { ended: send };
}

describe('yoi send while its pod is stopped', () => {
  it('says the pod shut down during the run', async () => {
    const pod = await slowPod();
    const { ended } = await sending(pod);
    expect((await pod.cli(['pod', 'stop', '--pod', 'slow'])).status).toBe(0);
    const r = await ended;
    expect(r.stderr).toBe('yoi: pod slow shut down during the run [YOI_ERR_CONNECTION]\n');
    expect(r.status).toBe(1);
  });

  it('a run another client cancelled is still said to be cancelled', async () => {
    const pod = await slowPod();
    const { ended } = await sending(pod);
    expect((await pod.cli(['cancel', '--pod', 'slow'])).status).toBe(0);
    const r = await ended;
    expect(r.stderr).toBe('yoi: the run was cancelled [YOI_ERR_REQUEST]\n');
    expect(r.status).toBe(1);
  });
});
