import { describe, expect, it } from '@jest/globals';
import { PluginHost } from '../../../core/plugin/PluginHost.js';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { defineService } from '../../../core/plugin/defineService.js';
import type { PluginApi } from '../../../core/plugin/PluginApi.js';

const Clock = defineService<{ now(): number }>('acme:clock', 'the time');

const provider = definePlugin({ name: 'acme:clock', apply: (api) => api.provide(Clock, { now: () => 42 }) });
const user = definePlugin({
  name: 'acme:stamp',
  apply(api) {
    const clock = api.use(Clock);
    api.hooks.renderPodEvent.for('turn_ended').tap('acme:stamp', () => `at ${clock().now()}`);
  },
});

function host(...plugins: ReturnType<ReturnType<typeof definePlugin>>[]) {
  const h = new PluginHost();
  h.applyPlugins(plugins);
  return h;
}

describe('apply(api) gets a narrow API, not the host', () => {
  it('has the hooks and the sharing functions, and no way to start, apply or rewire the host', () => {
    let seen: PluginApi | undefined;
    host(definePlugin({ name: 'acme:look', apply: (api) => void (seen = api) })());
    expect(Object.keys(seen!).sort()).toEqual([
      'config',
      'event',
      'hooks',
      'method',
      'name',
      'project',
      'provide',
      'segmentKind',
      'use',
      'useOptional',
    ]);
    expect(seen!.name).toBe('acme:look');
    expect(Object.isFrozen(seen)).toBe(true);
    expect('start' in seen! || 'applyPlugins' in seen! || 'onTapError' in seen!).toBe(false);
  });

  it('refuses provide/use/declarations after the pod started', () => {
    let api!: PluginApi;
    const h = host(definePlugin({ name: 'acme:late', apply: (a) => void (api = a) })());
    h.start();
    expect(() => api.provide(Clock, { now: () => 1 })).toThrow(
      expect.objectContaining({ code: 'YOI_ERR_PLUGIN_FROZEN' }),
    );
    expect(() => api.use(Clock)).toThrow(/plugin acme:late called use\(\) after the pod started/);
  });
});

describe('services between plugins', () => {
  it('a used service is read through the getter, whichever plugin comes first', () => {
    for (const order of [
      [provider(), user()],
      [user(), provider()],
    ]) {
      const h = host(...order);
      h.start();
      expect(h.hooks.renderPodEvent.for('turn_ended').call({ kind: 'turn_ended', pod_name: 'x' } as never)).toBe(
        'at 42',
      );
    }
  });

  it('a service nobody provides fails the start, naming the user and the service', () => {
    const h = host(user());
    expect(() => h.start()).toThrow(
      expect.objectContaining({
        code: 'YOI_ERR_PLUGIN_SERVICE',
        message:
          'plugin acme:stamp uses service acme:clock (the time), which no plugin provides: add the plugin that provides it, or remove acme:stamp',
      }),
    );
  });

  it('an optional service may be missing; two providers of one service are refused', () => {
    let got: unknown = 'unset';
    const optional = definePlugin({
      name: 'acme:opt',
      apply(api) {
        const clock = api.useOptional(Clock);
        api.hooks.renderPodEvent.for('errored').tap('acme:opt', () => String((got = clock())));
      },
    });
    const h = host(optional());
    h.start();
    h.hooks.renderPodEvent.for('errored').call({} as never);
    expect(got).toBeUndefined();
    const twice = definePlugin({ name: 'acme:clock2', apply: (api) => api.provide(Clock, { now: () => 0 }) });
    expect(() => host(provider(), twice())).toThrow(
      'plugin acme:clock2 provides service acme:clock, which plugin acme:clock already provides',
    );
  });

  it('yoi plugins sees who provides and who uses what', () => {
    const described = host(provider(), user()).describePlugins();
    expect(described.map(({ name, provides, uses }) => ({ name, provides, uses }))).toEqual([
      { name: 'acme:clock', provides: ['acme:clock'], uses: [] },
      { name: 'acme:stamp', provides: [], uses: ['acme:clock'] },
    ]);
  });
});

describe('teardown', () => {
  it('podStop taps run in reverse order of apply', async () => {
    const order: string[] = [];
    const stopper = (name: string) =>
      definePlugin({ name, apply: (api) => api.hooks.podStop.tapPromise(name, async () => void order.push(name)) })();
    const h = host(stopper('acme:a'), stopper('acme:b'), stopper('acme:c'));
    await h.hooks.podStop.promise({} as never);
    expect(order).toEqual(['acme:c', 'acme:b', 'acme:a']);
  });
});
