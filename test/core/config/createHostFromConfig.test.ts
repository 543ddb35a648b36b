import { afterEach, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configToJson } from '../../../core/config/configToJson.js';
import { createHostFromConfig } from '../../../core/config/createHostFromConfig.js';
import { loadConfig } from '../../../core/config/loadConfig.js';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { tempProject } from '../../support/tempProject.js';

const fake = definePlugin({
  name: 'test:fake-provider',
  apply(host) {
    host.hooks.providers.for('fake').tap('test:fake-provider', () => undefined);
    host.hooks.providers.for('other').tap('test:fake-provider', () => undefined);
  },
});

const projects: ReturnType<typeof tempProject>[] = [];
afterEach(() => projects.splice(0).forEach((p) => p.remove()));
async function configWith(files: Record<string, string>) {
  const p = tempProject({ 'package.json': '{}', ...files });
  projects.push(p);
  return loadConfig({ cwd: p.root, env: {}, defaultPlugins: [fake()] });
}

describe('createHostFromConfig', () => {
  it('applies the plugins and accepts a registered provider', async () => {
    const host = createHostFromConfig(await configWith({ 'yoi.config.json': '{"model":{"provider":"fake"}}' }));
    expect(host.describePlugins().map(({ name, hooks }) => ({ name, hooks }))).toEqual([
      { name: 'test:fake-provider', hooks: ['providers(fake)', 'providers(other)'] },
    ]);
    expect(host.started).toBe(false);
  });

  it('names the file, the key and the available providers for an unknown provider', async () => {
    const config = await configWith({ 'yoi.config.ts': "export default { model: { provider: 'foo' } };" });
    expect(() => createHostFromConfig(config)).toThrow(
      expect.objectContaining({
        code: 'YOI_ERR_UNKNOWN_PROVIDER',
        message: 'yoi.config.ts: model.provider: unknown provider "foo" (available: fake, other)',
      }),
    );
  });

  it('says when the default provider is missing', async () => {
    const config = await configWith({ 'yoi.config.json': '{"disablePlugins":["test:fake-provider"]}' });
    expect(() => createHostFromConfig(config)).toThrow(
      'no model configured, and the default provider "echo" is not available (available: none); set model.provider in yoi.config.json',
    );
  });
});

describe('configToJson', () => {
  it('shows plugins by name and masks credentials', async () => {
    const config = await configWith({
      'yoi.config.json': '{"model":{"provider":"fake","apiKey":"sk-123","model":"m1"}}',
    });
    const json = configToJson(config);
    expect(json.plugins).toEqual(['test:fake-provider']);
    expect(json.model).toEqual({ provider: 'fake', apiKey: '***', model: 'm1' });
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
  });
});

describe("the repository's own yoi.config.ts", () => {
  it('loads', async () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const config = await loadConfig({ cwd: path.join(root, 'core'), env: {} });
    expect(config.configPath).toBe(path.join(root, 'yoi.config.ts'));
    expect(config).toMatchObject({ name: 'yoi-dev', model: { provider: 'echo' } });
    expect(config.scope.deny.map((r) => r.path)).toContain(path.join(root, '.git'));
  });
});
