import { describe, expect, it, jest } from '@jest/globals';
import { PluginError } from '../../../core/errors/PluginError.js';
import { PluginHost } from '../../../core/plugin/PluginHost.js';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import type { PodEvent } from '../../../core/protocol/index.js';

// Hook arguments are irrelevant to the host's wrapping; the casts keep the cases short.
const segment = { kind: 'jira', ref: 'ACME-1' } as never;
const ctx = {} as never;
const shutDown = { kind: 'shut_down', pod_name: 'child' } as unknown as PodEvent;

function hostWith(...plugins: ReturnType<ReturnType<typeof definePlugin>>[]) {
  const host = new PluginHost();
  host.applyPlugins(plugins);
  return host;
}

describe('PluginHost tap wrapping', () => {
  it('turns a sync throw into a PluginError naming the plugin and the hook label', () => {
    const host = hostWith(
      definePlugin({
        name: 'acme:render',
        apply(h) {
          h.hooks.renderPodEvent.for('shut_down').tap('acme:render', () => {
            throw new Error('boom');
          });
        },
      })(),
    );
    let caught: unknown;
    try {
      host.hooks.renderPodEvent.for('shut_down').call(shutDown);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PluginError);
    expect(caught).toMatchObject({ code: 'YOI_ERR_PLUGIN', plugin: 'acme:render', hook: 'renderPodEvent(shut_down)' });
    expect((caught as PluginError).message).toBe('plugin acme:render failed in renderPodEvent(shut_down): boom');
    expect((caught as PluginError).cause).toEqual(new Error('boom'));
  });

  it('turns an async rejection into a PluginError', async () => {
    const host = hostWith(
      definePlugin({
        name: 'acme:jira',
        apply(h) {
          h.hooks.resolveSegment.for('jira').tapPromise('acme:jira', async () => {
            throw new Error('HTTP 503');
          });
        },
      })(),
    );
    await expect(host.hooks.resolveSegment.for('jira').promise(segment, ctx)).rejects.toMatchObject({
      code: 'YOI_ERR_PLUGIN',
      plugin: 'acme:jira',
      hook: 'resolveSegment(jira)',
      message: 'plugin acme:jira failed in resolveSegment(jira): HTTP 503',
    });
  });

  it('attributes a synchronous throw inside tapPromise, and non-Error values', async () => {
    const host = hostWith(
      definePlugin({
        name: 'acme:sloppy',
        apply(h) {
          h.hooks.beforeTurn.tapPromise('acme:sloppy', () => {
            throw 'plain string';
          });
        },
      })(),
    );
    await expect(host.hooks.beforeTurn.promise({} as never, ctx)).rejects.toMatchObject({
      plugin: 'acme:sloppy',
      hook: 'beforeTurn',
      message: 'plugin acme:sloppy failed in beforeTurn: plain string',
    });
  });

  it('keeps the innermost attribution instead of wrapping a PluginError twice', async () => {
    const host = hostWith(
      definePlugin({
        name: 'acme:inner',
        apply(h) {
          h.hooks.renderPodEvent.for('errored').tap('acme:inner', () => {
            throw new Error('inner');
          });
        },
      })(),
      definePlugin({
        name: 'acme:outer',
        apply(h) {
          h.hooks.beforeTurn.tapPromise('acme:outer', async (request) => {
            h.hooks.renderPodEvent.for('errored').call(shutDown);
            return request;
          });
        },
      })(),
    );
    await expect(host.hooks.beforeTurn.promise({} as never, ctx)).rejects.toMatchObject({
      plugin: 'acme:inner',
      hook: 'renderPodEvent(errored)',
    });
  });

  it('passes results through unchanged', async () => {
    const host = hostWith(
      definePlugin({
        name: 'acme:ok',
        apply(h) {
          h.hooks.resolveSegment
            .for('jira')
            .tapPromise('acme:ok', async () => ({ type: 'inline', text: 'ACME-1' }) as never);
        },
      })(),
    );
    await expect(host.hooks.resolveSegment.for('jira').promise(segment, ctx)).resolves.toEqual({
      type: 'inline',
      text: 'ACME-1',
    });
  });
});

describe('PluginHost isolated hooks', () => {
  it('reports a failing podEvent tap through onTapError and still runs the later taps', async () => {
    const ran: string[] = [];
    const host = new PluginHost();
    const reported: PluginError[] = [];
    host.onTapError = (error) => reported.push(error);
    host.applyPlugins([
      definePlugin({
        name: 'acme:a',
        apply(h) {
          h.hooks.podEvent.for('shut_down').tapPromise('acme:a', async () => {
            ran.push('a');
            throw new Error('registry locked');
          });
        },
      })(),
      definePlugin({
        name: 'acme:b',
        apply(h) {
          h.hooks.podEvent.for('shut_down').tap('acme:b', () => {
            ran.push('b');
            throw new Error('sync too');
          });
        },
      })(),
      definePlugin({
        name: 'acme:c',
        apply(h) {
          h.hooks.podEvent.for('shut_down').tapPromise('acme:c', async () => {
            ran.push('c');
          });
        },
      })(),
    ]);
    await expect(host.hooks.podEvent.for('shut_down').promise(shutDown, ctx)).resolves.toBeUndefined();
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(reported.map((e) => e.message)).toEqual([
      'plugin acme:a failed in podEvent(shut_down): registry locked',
      'plugin acme:b failed in podEvent(shut_down): sync too',
    ]);
  });

  it('isolates plain isolated hooks (afterTurn) too, and survives a throwing reporter', async () => {
    const host = new PluginHost();
    host.onTapError = () => {
      throw new Error('reporter broke');
    };
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    let later = false;
    try {
      host.applyPlugins([
        definePlugin({
          name: 'acme:obs',
          apply(h) {
            h.hooks.afterTurn.tapPromise('acme:obs', async () => {
              throw new Error('observer down');
            });
            h.hooks.afterTurn.tapPromise('acme:obs', async () => {
              later = true;
            });
          },
        })(),
      ]);
      await host.hooks.afterTurn.promise({} as never, ctx);
      expect(write).toHaveBeenCalledWith('yoi: plugin acme:obs failed in afterTurn: observer down\n');
    } finally {
      write.mockRestore();
    }
    expect(later).toBe(true);
  });

  it('does not isolate other hooks: a failing beforeTurn tap stops the hook', async () => {
    let later = false;
    const host = hostWith(
      definePlugin({
        name: 'acme:x',
        apply(h) {
          h.hooks.beforeTurn.tapPromise('acme:x', async () => {
            throw new Error('no');
          });
          h.hooks.beforeTurn.tapPromise('acme:x', async (r) => {
            later = true;
            return r;
          });
        },
      })(),
    );
    await expect(host.hooks.beforeTurn.promise({} as never, ctx)).rejects.toBeInstanceOf(PluginError);
    expect(later).toBe(false);
  });
});

describe('PluginHost registration rules', () => {
  it('refuses tapAsync with a readable error naming the plugin', () => {
    const host = new PluginHost();
    const plugin = definePlugin({
      name: 'acme:cb',
      apply(h) {
        h.hooks.podStart.tapAsync('acme:cb', (_pod, done) => done());
      },
    })();
    expect(() => host.applyPlugins([plugin])).toThrow(
      expect.objectContaining({
        code: 'YOI_ERR_PLUGIN_TAP_ASYNC',
        message: 'plugin acme:cb used tapAsync() on podStart: callback-style taps are not supported, use tapPromise()',
      }),
    );
  });

  it('refuses an async function passed to tap()', () => {
    const host = new PluginHost();
    expect(() => host.hooks.providers.for('x').tap('acme:p', (async () => undefined) as never)).toThrow(
      expect.objectContaining({ code: 'YOI_ERR_PLUGIN_TAP_ASYNC' }),
    );
  });

  it('refuses taps and plugins after start() with a message saying what to do', () => {
    const host = hostWith();
    host.start();
    expect(host.started).toBe(true);
    expect(() => host.hooks.resolveSegment.for('late').tapPromise('acme:late', async () => undefined)).toThrow(
      expect.objectContaining({
        code: 'YOI_ERR_PLUGIN_FROZEN',
        message:
          "plugin acme:late tapped resolveSegment(late) after the pod started: taps must be added in a plugin's apply()",
      }),
    );
    expect(() => host.hooks.podStop.tap('acme:late', () => undefined)).toThrow(
      /taps must be added in a plugin's apply\(\)/,
    );
    expect(() => host.applyPlugins([definePlugin({ name: 'acme:x', apply() {} })()])).toThrow(
      expect.objectContaining({ code: 'YOI_ERR_PLUGIN_FROZEN' }),
    );
  });

  it('rejects duplicate plugin names', () => {
    const make = definePlugin({ name: 'acme:twice', apply() {} });
    expect(() => hostWith(make(), make())).toThrow(
      expect.objectContaining({
        code: 'YOI_ERR_PLUGIN_DUPLICATE',
        message: 'plugin acme:twice is applied twice (plugin names must be unique)',
      }),
    );
    const host = hostWith(make());
    expect(() => host.applyPlugins([make()])).toThrow(expect.objectContaining({ code: 'YOI_ERR_PLUGIN_DUPLICATE' }));
  });

  it('checks dependsOn against the plugins applied before', () => {
    const base = definePlugin({ name: 'acme:base', apply() {} });
    const child = definePlugin({ name: 'acme:child', dependsOn: ['acme:base'], apply() {} });
    expect(() => hostWith(child())).toThrow(
      expect.objectContaining({
        code: 'YOI_ERR_PLUGIN_DEPENDENCY',
        message: 'plugin acme:child depends on acme:base, which is not in the plugin list',
      }),
    );
    expect(() => hostWith(child(), base())).toThrow(
      'plugin acme:child depends on acme:base, which comes after it: list acme:base first',
    );
    expect(hostWith(base(), child()).plugins.map((p) => p.name)).toEqual(['acme:base', 'acme:child']);
  });

  it('rethrows an apply() failure naming the plugin', () => {
    const broken = definePlugin({
      name: 'acme:broken',
      apply() {
        throw new TypeError('cannot read properties of undefined');
      },
    });
    expect(() => hostWith(broken())).toThrow(
      expect.objectContaining({
        code: 'YOI_ERR_PLUGIN',
        plugin: 'acme:broken',
        hook: 'apply',
        message: 'plugin acme:broken failed in apply: cannot read properties of undefined',
      }),
    );
  });

  it('rejects values that are not plugins', () => {
    const host = new PluginHost();
    expect(() => host.applyPlugins([{ name: 'fake', apply() {} } as never])).toThrow(
      expect.objectContaining({
        code: 'YOI_ERR_PLUGIN_INVALID',
        message: 'plugins[0]: expected a plugin made with definePlugin()',
      }),
    );
  });
});

describe('PluginHost introspection', () => {
  it('describes every plugin with its hook labels, HookMap keys included', () => {
    const host = hostWith(
      definePlugin({
        name: 'yoi:paste',
        apply(h) {
          h.hooks.resolveSegment.for('paste').tapPromise('yoi:paste', async () => undefined);
          h.hooks.completeSegment.for('paste').tapPromise('yoi:paste', async (items) => items);
          h.hooks.resolveSegment.for('paste').tapPromise('yoi:paste', async () => undefined);
        },
      })(),
      definePlugin({ name: 'acme:idle', apply() {} })(),
      definePlugin({
        name: 'acme:policy',
        apply(h) {
          h.hooks.beforeToolCall.tapPromise('acme:policy', async () => undefined);
          h.hooks.providers.for('fake').tap('acme:policy', () => undefined);
        },
      })(),
    );
    expect(host.describePlugins().map(({ name, hooks }) => ({ name, hooks }))).toEqual([
      { name: 'yoi:paste', hooks: ['resolveSegment(paste)', 'completeSegment(paste)'] },
      { name: 'acme:idle', hooks: [] },
      { name: 'acme:policy', hooks: ['beforeToolCall', 'providers(fake)'] },
    ]);
  });

  it('lists HookMap keys that have taps, not keys merely looked up', () => {
    const host = hostWith(
      definePlugin({
        name: 'acme:p',
        apply(h) {
          h.hooks.providers.for('echo').tap('acme:p', () => undefined);
          h.hooks.providers.for('scripted').tap('acme:p', () => undefined);
          h.hooks.podEvent.for('shut_down').tapPromise('acme:p', async () => undefined);
        },
      })(),
    );
    host.hooks.providers.for('nobody');
    expect(host.keysOf('providers')).toEqual(['echo', 'scripted']);
    expect(host.keysOf('podEvent')).toEqual(['shut_down']);
    expect(host.keysOf('tools')).toEqual([]);
  });

  it('attributes taps made inside apply() to the applying plugin', async () => {
    const host = hostWith(
      definePlugin({
        name: 'acme:jira',
        apply(h) {
          h.hooks.resolveSegment.for('jira').tapPromise('jira-cache', async () => {
            throw new Error('x');
          });
        },
      })(),
    );
    expect(host.describePlugins().map(({ name, hooks }) => ({ name, hooks }))).toEqual([
      { name: 'acme:jira', hooks: ['resolveSegment(jira)'] },
    ]);
    await expect(host.hooks.resolveSegment.for('jira').promise(segment, ctx)).rejects.toMatchObject({
      plugin: 'acme:jira',
    });
  });
});

describe('PluginHost stages', () => {
  it('runs an early-stage tap before taps applied earlier', async () => {
    const { STAGE_EARLY, STAGE_LATE } = await import('../../../core/plugin/stages.js');
    const order: string[] = [];
    const tapAt = (name: string, stage?: number) =>
      definePlugin({
        name,
        apply(h) {
          h.hooks.resolveSegment.for('paste').tapPromise({ name, stage }, async () => {
            order.push(name);
            return undefined;
          });
        },
      })();
    const host = hostWith(tapAt('yoi:paste'), tapAt('acme:late', STAGE_LATE), tapAt('acme:override', STAGE_EARLY));
    await host.hooks.resolveSegment.for('paste').promise(segment, ctx);
    expect(order).toEqual(['acme:override', 'yoi:paste', 'acme:late']);
  });
});
