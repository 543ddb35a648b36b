import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { PluginHost } from '../../../core/plugin/PluginHost.js';
import { PLUGIN_BRAND, isYoiPlugin } from '../../../core/plugin/YoiPlugin.js';

const jira = definePlugin({
  name: 'acme:jira',
  options: z.object({
    baseUrl: z.url(),
    retries: z.int().min(0).default(2),
    auth: z.object({ token: z.string().min(1) }),
  }),
  apply(host, options) {
    host.hooks.resolveSegment
      .for('jira')
      .tapPromise('acme:jira', async () => ({ type: 'inline', text: options.baseUrl }) as never);
  },
});

describe('definePlugin', () => {
  it('returns a factory making frozen, branded plugins with validated options', () => {
    const plugin = jira({ baseUrl: 'https://jira.acme.dev', auth: { token: 't' } });
    expect(Object.isFrozen(plugin)).toBe(true);
    expect(plugin[PLUGIN_BRAND]).toBe(true);
    expect(isYoiPlugin(plugin)).toBe(true);
    expect(plugin).toMatchObject({
      name: 'acme:jira',
      dependsOn: [],
      options: { baseUrl: 'https://jira.acme.dev', retries: 2, auth: { token: 't' } },
    });
    expect(JSON.stringify(plugin)).toBe(
      '{"name":"acme:jira","options":{"baseUrl":"https://jira.acme.dev","retries":2,"auth":{"token":"t"}},"dependsOn":[]}',
    );
  });

  it('hands the parsed options to apply()', async () => {
    const host = new PluginHost();
    host.applyPlugins([jira({ baseUrl: 'https://jira.acme.dev', auth: { token: 't' } })]);
    await expect(host.hooks.resolveSegment.for('jira').promise({} as never, {} as never)).resolves.toEqual({
      type: 'inline',
      text: 'https://jira.acme.dev',
    });
  });

  it('rejects bad options naming the plugin and the key path', () => {
    expect(() => jira({ baseUrl: 'not a url', auth: { token: 't' } })).toThrow(
      expect.objectContaining({
        code: 'YOI_ERR_PLUGIN_OPTIONS',
        message: 'plugin acme:jira: invalid options: baseUrl: Invalid URL',
      }),
    );
    expect(() => jira({ baseUrl: 'https://x.dev', auth: { token: '' } })).toThrow(
      'plugin acme:jira: invalid options: auth.token: must not be empty',
    );
    expect(() => jira({ baseUrl: 'https://x.dev', auth: { token: 't' }, retries: 1.5 })).toThrow(
      'plugin acme:jira: invalid options: retries: expected an integer',
    );
    expect(() => (jira as (o?: unknown) => unknown)()).toThrow('plugin acme:jira: invalid options: expected object');
  });

  it('refuses options for a plugin without a schema', () => {
    const plain = definePlugin({ name: 'acme:plain', apply() {} });
    expect(plain().options).toBeUndefined();
    expect(() => (plain as (o?: unknown) => unknown)({ x: 1 })).toThrow(
      expect.objectContaining({ code: 'YOI_ERR_PLUGIN_OPTIONS', message: 'plugin acme:plain: takes no options' }),
    );
  });

  it('rejects a definition without a usable name', () => {
    expect(() => definePlugin({ name: ' ', apply() {} })).toThrow(
      expect.objectContaining({ code: 'YOI_ERR_PLUGIN_INVALID' }),
    );
  });

  it('keeps dependsOn', () => {
    const p = definePlugin({ name: 'acme:x', dependsOn: ['yoi:paste'], apply() {} })();
    expect(p.dependsOn).toEqual(['yoi:paste']);
    expect(Object.isFrozen(p.dependsOn)).toBe(true);
  });
});
