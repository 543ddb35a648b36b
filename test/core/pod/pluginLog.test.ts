import { afterEach, describe, expect, it } from '@jest/globals';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { runEnded, startTestPod, text, type TestPod } from '../../support/startTestPod.js';

let tp: TestPod | undefined;
afterEach(async () => {
  await tp?.stop();
  tp = undefined;
});

// A plugin keeping state in the session log, as the permission plugin keeps pending asks.
const restored: unknown[][] = [];
const counter = definePlugin({
  name: 'acme:counter',
  apply(api) {
    api.hooks.podStart.tapPromise('acme:counter', async (pod) => {
      const before = pod.services.pluginLog.restored('acme:counter');
      restored.push([...before]);
      pod.services.pluginLog.append('acme:counter', { n: before.length + 1 });
    });
  },
});

describe("plugins' session log entries", () => {
  it('are written to the session log and handed back after --resume, per plugin', async () => {
    // A session worth resuming has a conversation: one run each time.
    const talk = async () => {
      const c = await tp!.connect();
      const ended = runEnded(c);
      await c.request({ method: 'run', params: { input: [text('hi')] } });
      await ended;
      await c.close();
      await tp!.stop();
    };
    tp = await startTestPod({ name: 'p', plugins: [...defaultPlugins(), counter()] });
    const dir = tp.dir;
    await talk();
    tp = await startTestPod({ name: 'p', dir, resume: true, plugins: [...defaultPlugins(), counter()] });
    await talk();
    tp = await startTestPod({ name: 'p', dir, resume: true, plugins: [...defaultPlugins(), counter()] });
    expect(restored).toEqual([[], [{ n: 1 }], [{ n: 1 }, { n: 2 }]]);
  });
});
