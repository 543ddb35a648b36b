import { describe, expect, it } from '@jest/globals';
import { defineConfig } from '../../../core/config/defineConfig.js';
import { YoiConfigSchema, type YoiConfig } from '../../../core/config/YoiConfigSchema.js';
import { definePlugin } from '../../../core/plugin/definePlugin.js';

describe('defineConfig', () => {
  it('returns its argument, typed (the @ts-expect-error lines are checked by tsc)', () => {
    const plugin = definePlugin({ name: 'acme:x', apply() {} })();
    const config = defineConfig({
      model: { provider: 'anthropic', model: 'm', maxTokens: 1024 },
      plugins: [plugin],
      limits: { toolOutputBytes: 1 },
    });
    expect(YoiConfigSchema.parse(config).plugins).toEqual([plugin]);

    // @ts-expect-error unknown key
    defineConfig({ modle: {} });
    // @ts-expect-error plugins are plugin objects, not names
    defineConfig({ plugins: ['yoi:paste'] });
    // @ts-expect-error permission is read or write
    const bad: YoiConfig = { scope: { allow: [{ target: '.', permission: 'admin' }] } };
    expect(bad).toBeDefined();
  });
});
