import { afterEach, describe, expect, it } from '@jest/globals';
import { PodClient } from '../../client/PodClient.js';
import { makeProject } from '../support/startTestPod.js';
import { startPodProcess } from '../support/runCli.js';

/**
 * Found by a tester: a pod stopped with SIGSTOP never answers `hello`, so the client carries on
 * as for a v1 pod, and its errors said the pod "speaks protocol v1". It only may: say what is known.
 */

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function frozenPod(): Promise<string> {
  const dir = makeProject();
  const pod = await startPodProcess(['--name', 'frozen'], { cwd: dir, env: { YOI_RUNTIME_DIR: `${dir}/run` } });
  cleanups.push(
    () => pod.exited,
    () => pod.child.kill('SIGKILL'),
  );
  pod.child.kill('SIGSTOP');
  return pod.socket;
}

describe('a pod that does not answer hello', () => {
  it('is not said to speak protocol v1: its errors say it did not answer', async () => {
    const socket = await frozenPod();
    const client = await PodClient.connect({ socketPath: socket, clientName: 'test/1', welcomeTimeoutMs: 100 });
    cleanups.push(() => client.close());
    expect(client.protocol).toBe(1); // a v1 pod is still detected this way
    await expect(client.request({ method: 'get_history' }, 200)).rejects.toMatchObject({
      code: 'YOI_ERR_TIMEOUT',
      message:
        'the pod did not answer `get_history` within 200 ms, nor `hello` within 100 ms: it is not responding (or speaks only protocol v1)',
    });
    await expect(client.request({ method: 'compact' })).rejects.toMatchObject({
      code: 'YOI_ERR_TIMEOUT',
      message:
        'the pod did not answer `hello` within 100 ms: it is not responding (or speaks only protocol v1, which has no `compact`)',
    });
  });
});
