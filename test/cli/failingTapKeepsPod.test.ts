import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { RawClient } from '../support/rawClient.js';
import { startPodProcess } from '../support/runCli.js';
import { makeProject } from '../support/startTestPod.js';

/**
 * A plugin's tap that fails where nothing caught it (a `checkPodEvent` check, a `welcome`
 * field) rejected the connection's line handling, and nothing handled that rejection: Node
 * ended the pod process (exit code 1, its runtime dir left behind). Found in a review of
 * unhandled rejections; replayed here on a real pod process. Now the request is answered with
 * an `internal` error naming the plugin and the hook, every client gets an error alert saying
 * it, and the pod goes on serving.
 */
const CONFIG = `import { definePlugin } from 'yoi';
import { defaultPlugins } from 'yoi/plugins';
const failing = definePlugin({
  name: 'test:failing',
  apply(host) {
    host.hooks.checkPodEvent.tapPromise({ name: 'test:failing', stage: -100 }, async () => {
      throw new Error('the check broke');
    });
    host.hooks.welcome.tap('test:failing', (welcome, client) => {
      if (client.name === 'test/unwelcome') throw new Error('no welcome for you');
      return welcome;
    });
  },
});
export default { plugins: [...defaultPlugins(), failing()] };
`;

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function rawClient(socket: string): Promise<RawClient> {
  const c = await RawClient.connect(socket);
  cleanups.push(() => c.destroy());
  return c;
}

describe('a plugin tap that fails where nothing catches it', () => {
  it('gets its request an internal error naming the plugin, and the pod process goes on', async () => {
    const dir = fs.realpathSync(makeProject({ 'yoi.config.ts': CONFIG }));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const pod = await startPodProcess(['--name', 'tapfail'], {
      cwd: dir,
      env: { YOI_RUNTIME_DIR: path.join(dir, 'run') },
    });
    cleanups.push(() => pod.child.kill('SIGKILL'));
    let exitCode: number | null | undefined;
    void pod.exited.then((code) => (exitCode = code));

    // A child's report whose check fails: refused with `internal` (the child tries again), nothing applied.
    const reporter = await rawClient(pod.socket);
    reporter.write('{"method":"hello","request_id":"h1","params":{"protocol_version":2,"client":"test/reporter"}}\n');
    await reporter.until((e) => e.event === 'welcome');
    reporter.write('{"method":"pod_event","request_id":"r1","params":{"kind":"turn_ended","pod_name":"kid"}}\n');
    const refused = await reporter.until((e) => e.event === 'error' && e.request_id === 'r1');
    expect(refused).toMatchObject({
      event: 'error',
      data: {
        code: 'internal',
        message: expect.stringContaining('plugin test:failing failed in checkPodEvent: the check broke'),
      },
    });

    // A client whose welcome a tap cannot build: its hello is answered with the error.
    const unwelcome = await rawClient(pod.socket);
    unwelcome.write('{"method":"hello","request_id":"h2","params":{"protocol_version":2,"client":"test/unwelcome"}}\n');
    const failed = await unwelcome.until((e) => e.event === 'error' && e.request_id === 'h2');
    expect(failed).toMatchObject({
      data: {
        code: 'internal',
        message: expect.stringContaining('plugin test:failing failed in welcome: no welcome for you'),
      },
    });
    // The same connection is still served after the failure.
    unwelcome.write('{"method":"get_history","request_id":"g2"}\n');
    expect(await unwelcome.until((e) => e.event === 'history' && e.request_id === 'g2')).toBeDefined();

    // The pod process goes on: a new client is welcomed and served.
    const other = await rawClient(pod.socket);
    other.write('{"method":"hello","request_id":"h3","params":{"protocol_version":2,"client":"test/other"}}\n');
    await other.until((e) => e.event === 'welcome' && e.request_id === 'h3');
    other.write('{"method":"get_history","request_id":"g3"}\n');
    expect(await other.until((e) => e.event === 'history' && e.request_id === 'g3')).toBeDefined();
    // Each failure is also said to every client, naming the plugin and the hook.
    await reporter.until((e) => e.event === 'alert' && e.data.message.includes('failed in welcome'));
    const alerts = reporter.events.flatMap((e) =>
      e.event === 'alert' && e.data.level === 'error' ? [e.data.message] : [],
    );
    expect(alerts).toEqual([
      expect.stringContaining('plugin test:failing failed in checkPodEvent: the check broke'),
      expect.stringContaining('plugin test:failing failed in welcome: no welcome for you'),
    ]);
    expect(exitCode).toBeUndefined();
    expect(pod.stderr()).not.toMatch(/Unhandled|UnhandledPromiseRejection|PluginError/);
  });
});
