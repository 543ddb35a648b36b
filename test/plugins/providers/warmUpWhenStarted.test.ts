import { describe, expect, it } from '@jest/globals';
import { AsyncSeriesHook } from 'tapable';
import type { PluginApi, PodInfo } from '../../../core/api.js';
import { warmUpWhenStarted } from '../../../plugins/providers/aiSdk/warmUpWhenStarted.js';

/** The part of a plugin's API the warm-up uses, on a real tapable hook as the pod builds it. */
function api() {
  const podStart = new AsyncSeriesHook<[PodInfo]>(['pod']);
  const pluginApi = { name: 'test:provider', hooks: { podStart } } as unknown as PluginApi;
  return { pluginApi, start: () => podStart.promise({ podName: 'p' } as unknown as PodInfo) };
}

describe('warmUpWhenStarted', () => {
  it('loads the SDK once the pod has started, after the start itself returned', async () => {
    const { pluginApi, start } = api();
    const order: string[] = [];
    let loaded!: () => void;
    const done = new Promise<void>((r) => (loaded = r));
    warmUpWhenStarted(pluginApi)(async () => {
      order.push('load');
      loaded();
    });
    expect(order).toEqual([]); // not while the pod is being built
    await start();
    order.push('started');
    await done;
    expect(order).toEqual(['started', 'load']);
  });

  it('loads nothing for a pod whose provider is another one', async () => {
    const { pluginApi, start } = api();
    warmUpWhenStarted(pluginApi); // this plugin's factory never ran
    await expect(start()).resolves.toBeUndefined();
  });

  it('leaves a failing load to the first request: the start is not affected', async () => {
    const { pluginApi, start } = api();
    let failed!: () => void;
    const done = new Promise<void>((r) => (failed = r));
    warmUpWhenStarted(pluginApi)(() => {
      failed();
      return Promise.reject(new Error('no such package'));
    });
    await expect(start()).resolves.toBeUndefined();
    await done;
  });
});
