import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { RawClient } from '../support/rawClient.js';
import { startPodProcess } from '../support/runCli.js';
import { makeProject } from '../support/startTestPod.js';

/**
 * A plugin's provider whose `close()` throws before returning its promise left the pod's stop
 * rejected, and the callers that start a stop without waiting on it (the `shutdown` method,
 * SIGTERM) left that rejection unhandled: a pod that was stopping anyway ended with exit code 1
 * and a stack trace. Found in a review of unhandled rejections; replayed on real pod processes.
 */
const CONFIG = `import { definePlugin } from 'yoi';
import { defaultPlugins } from 'yoi/plugins';
const closer = definePlugin({
  name: 'test:closer',
  apply(host) {
    host.hooks.providers.for('closer').tap('test:closer', () => ({
      name: 'closer',
      model: 'closer',
      async *stream() {
        yield { type: 'finish', reason: 'stop' };
      },
      close() {
        throw new Error('close broke');
      },
    }));
  },
});
export default { model: { provider: 'closer' }, plugins: [...defaultPlugins(), closer()] };
`;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startCloserPod(name: string) {
  const dir = fs.realpathSync(makeProject({ 'yoi.config.ts': CONFIG }));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pod = await startPodProcess(['--name', name], { cwd: dir, env: { YOI_RUNTIME_DIR: path.join(dir, 'run') } });
  cleanups.push(() => pod.child.kill('SIGKILL'));
  return { pod, runtimeDir: path.join(dir, 'run', name) };
}

describe('a provider whose close throws', () => {
  it('does not spoil a stop by the shutdown method', async () => {
    const { pod, runtimeDir } = await startCloserPod('closer1');
    const c = await RawClient.connect(pod.socket);
    cleanups.push(() => c.destroy());
    c.write('{"method":"hello","request_id":"h","params":{"protocol_version":2,"client":"test/stopper"}}\n');
    await c.until((e) => e.event === 'welcome');
    c.write('{"method":"shutdown","request_id":"s"}\n');
    expect(await pod.exited).toBe(0);
    expect(pod.stderr()).not.toMatch(/close broke|Unhandled|at .*\(/);
    expect(fs.existsSync(runtimeDir)).toBe(false);
  });

  it('does not spoil a stop by SIGTERM', async () => {
    const { pod, runtimeDir } = await startCloserPod('closer2');
    pod.child.kill('SIGTERM');
    expect(await pod.exited).toBe(0);
    expect(pod.stderr()).not.toMatch(/close broke|Unhandled|at .*\(/);
    expect(fs.existsSync(runtimeDir)).toBe(false);
  });
});
