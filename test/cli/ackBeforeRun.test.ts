import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { PodClient } from '../../client/PodClient.js';
import { UnknownSegment } from '../../core/protocol/index.js';
import { startPodProcess } from '../support/runCli.js';
import { makeProject, recorder, runEnded } from '../support/startTestPod.js';

/**
 * A `run`'s ack leaves the pod before the run's own work: a resolver that keeps the pod's thread
 * in microtasks (as first-time code in a fresh pod does for ~10 ms) waits here until the client
 * has seen the ack. Before, the ack stayed in the corked socket until the event loop's turn
 * ended, after the resolver: the resolver gave up after 5 s and said so.
 */
const CONFIG = `import fs from 'node:fs';
import { definePlugin } from 'yoi';
import { defaultPlugins } from 'yoi/plugins';
const spin = definePlugin({
  name: 'test:spin',
  apply(host) {
    host.hooks.resolveSegment.for('spin').tapPromise('test:spin', async (segment) => {
      const flag = (segment as { flag: string }).flag;
      const end = Date.now() + 5000;
      // Microtasks only: no I/O is handled (and no timer runs) until this loop ends.
      while (!fs.existsSync(flag) && Date.now() < end) await Promise.resolve();
      return { type: 'inline', text: fs.existsSync(flag) ? 'the ack was out' : 'the ack waited' };
    });
  },
});
export default { plugins: [...defaultPlugins(), spin()] };
`;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the ack of a run', () => {
  it('reaches the client while the run it started still holds the pod', async () => {
    const dir = fs.realpathSync(makeProject({ 'yoi.config.ts': CONFIG }));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const pod = await startPodProcess(['--name', 'acker'], {
      cwd: dir,
      env: { YOI_RUNTIME_DIR: path.join(dir, 'run') },
    });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    const c = await PodClient.connect({ socketPath: pod.socket, clientName: 'test/ack' });
    cleanups.push(() => c.close());
    const events = recorder(c);
    const ended = runEnded(c, 30_000);
    const flag = path.join(dir, 'acked');
    await c.request({ method: 'run', params: { input: [new UnknownSegment({ kind: 'spin', flag })] } });
    fs.writeFileSync(flag, '');
    expect((await ended).event).toBe('run_end');
    const reply = events.flatMap((e) => (e.event === 'text_done' ? [e.data.text] : [])).join('');
    expect(reply).toContain('the ack was out');
    // The pod goes on serving.
    const again = runEnded(c, 30_000);
    await c.request({ method: 'run', params: { input: [{ kind: 'text', content: 'still here' }] } });
    expect((await again).event).toBe('run_end');
  });
});
