import { afterEach, describe, expect, it } from '@jest/globals';
import path from 'node:path';
import { loadConfig, type LoadConfigOptions } from '../../../core/config/loadConfig.js';
import { definePlugin } from '../../../core/plugin/definePlugin.js';
import { tempProject } from '../../support/tempProject.js';

const projects: ReturnType<typeof tempProject>[] = [];
function project(files: Record<string, string>) {
  const p = tempProject({ 'package.json': '{"name":"demo","private":true}', ...files });
  projects.push(p);
  return p;
}
afterEach(() => projects.splice(0).forEach((p) => p.remove()));

const load = (cwd: string, options: Partial<LoadConfigOptions> = {}) => loadConfig({ cwd, env: {}, ...options });
const yoiModule = async () => ({ yoi: await import('../../../index.js') });

describe('loadConfig: finding the file', () => {
  it('finds the config upward from a nested cwd, and resolves paths against its directory', async () => {
    const p = project({
      'yoi.config.ts': "export default { name: 'app', scope: { allow: [{ target: 'src', permission: 'write' }] } };",
      'src/deep/x.txt': '',
    });
    const config = await load(p.path('src', 'deep'));
    expect(config.configPath).toBe(p.path('yoi.config.ts'));
    expect(config.projectDir).toBe(p.root);
    expect(config.cwd).toBe(p.path('src', 'deep'));
    expect(config.name).toBe('app');
    expect(config.scope.allow).toEqual([{ target: 'src', permission: 'write', recursive: true, path: p.path('src') }]);
    expect(config.sessions.dir).toBe(p.path('.yoi', 'sessions'));
  });

  it('stops searching at the directory holding package.json', async () => {
    const p = project({ 'yoi.config.json': '{"name":"outer"}', 'pkg/package.json': '{}', 'pkg/src/.keep': '' });
    expect((await load(p.path('pkg', 'src'))).configPath).toBeNull();
  });

  it('loads a .ts config with a relative .ts import', async () => {
    const p = project({
      'yoi.config.ts':
        "import { model } from './config/model.js';\nimport { name } from './config/name.ts';\nconst prompt: string = 'be brief';\nexport default { model, name, systemPrompt: prompt };",
      'config/model.ts': "export const model = { provider: 'scripted' as const, script: 'replies.json' };",
      'config/name.ts': "export const name: string = 'typed';",
    });
    const config = await load(p.root);
    expect(config).toMatchObject({
      name: 'typed',
      systemPrompt: 'be brief',
      model: { provider: 'scripted', script: 'replies.json' },
      modelIsDefault: false,
    });
  });

  it('loads yoi.config.json, .yoirc (YAML) and package.json#yoi', async () => {
    expect(
      (await load(project({ 'yoi.config.json': '{"model":{"provider":"echo"},"maxTurns":3}' }).root)).maxTurns,
    ).toBe(3);
    expect(await load(project({ '.yoirc': 'name: from-rc\nmaxTurns: 4\n' }).root)).toMatchObject({
      name: 'from-rc',
      maxTurns: 4,
    });
    const pkg = project({ 'package.json': '{"name":"demo","yoi":{"name":"from-pkg"}}' });
    const config = await load(pkg.root);
    expect(config.configPath).toBe(pkg.path('package.json'));
    expect(config.name).toBe('from-pkg');
  });

  it('prefers yoi.config.* over package.json#yoi in the same directory', async () => {
    const p = project({
      'package.json': '{"yoi":{"name":"pkg"}}',
      'yoi.config.mjs': "export default { name: 'file' };",
    });
    expect((await load(p.root)).name).toBe('file');
  });

  it('--config and YOI_CONFIG override the search; --config wins', async () => {
    const p = project({
      'yoi.config.json': '{"name":"searched"}',
      'alt/one.json': '{"name":"one"}',
      'alt/two.cjs': "module.exports = { name: 'two' };",
    });
    expect((await load(p.root, { env: { YOI_CONFIG: 'alt/two.cjs' } })).name).toBe('two');
    const config = await load(p.root, { configFile: 'alt/one.json', env: { YOI_CONFIG: 'alt/two.cjs' } });
    expect(config.name).toBe('one');
    expect(config.projectDir).toBe(p.path('alt'));
  });

  it('reports a missing explicit file by name', async () => {
    const p = project({});
    await expect(load(p.root, { configFile: 'nope.ts' })).rejects.toMatchObject({
      code: 'YOI_ERR_CONFIG_NOT_FOUND',
      message: 'config file not found: nope.ts (from --config)',
    });
    await expect(load(p.root, { env: { YOI_CONFIG: '/no/such/yoi.json' } })).rejects.toThrow(
      'config file not found: /no/such/yoi.json (from YOI_CONFIG)',
    );
  });

  it('without a config, uses every default with projectDir = cwd', async () => {
    const p = project({});
    const plugin = definePlugin({ name: 'yoi:test', apply() {} })();
    const config = await load(p.root, { defaultPlugins: [plugin] });
    expect(config).toMatchObject({
      configPath: null,
      projectDir: p.root,
      name: 'default',
      model: { provider: 'echo' },
      modelIsDefault: true,
      maxTurns: 50,
      plugins: [plugin],
      scope: { allow: [], deny: [] },
      sessions: { dir: p.path('.yoi/sessions') },
      compaction: { retainedTokens: 8000 },
      limits: {
        maxLineBytes: 16 * 1024 * 1024,
        clientQueueBytes: 8 * 1024 * 1024,
        inputBufferBytes: 64 * 1024 * 1024,
        toolOutputBytes: 16 * 1024,
        toolTimeoutMs: 300_000,
      },
    });
    // The built-ins' keys are not the core's: `knowledge`, `workflows`, `limits.fileRefBytes` belong to their plugins.
    expect(config).not.toHaveProperty('knowledge');
    expect(config.limits).not.toHaveProperty('fileRefBytes');
    expect(config.compaction.threshold).toBeUndefined();
  });

  it('treats an empty config file as an empty config', async () => {
    const p = project({ 'yoi.config.ts': '' });
    expect(await load(p.root)).toMatchObject({ configPath: p.path('yoi.config.ts'), name: 'default' });
  });
});

describe('loadConfig: plugins', () => {
  const a = definePlugin({ name: 'yoi:a', apply() {} })();
  const b = definePlugin({ name: 'yoi:b', apply() {} })();

  it('a plain-data config without plugins gets the defaults, minus disablePlugins', async () => {
    const p = project({
      'yoi.config.mjs': "export default { model: { provider: 'echo' }, disablePlugins: ['yoi:a'] };",
    });
    const config = await load(p.root, { defaultPlugins: [a, b] });
    expect(config.plugins.map((x) => x.name)).toEqual(['yoi:b']);
    expect(config.disablePlugins).toEqual(['yoi:a']);
  });

  it('rejects disabling a plugin that is not there', async () => {
    const p = project({ 'yoi.config.json': '{"disablePlugins":["yoi:a","yoi:pastee"]}' });
    await expect(load(p.root, { defaultPlugins: [a, b] })).rejects.toMatchObject({
      code: 'YOI_ERR_CONFIG',
      message: 'yoi.config.json: disablePlugins[1]: no plugin named "yoi:pastee" (plugins: yoi:a, yoi:b)',
    });
  });

  it("takes plugins made with the config's own import of 'yoi'", async () => {
    const p = project({
      'yoi.config.ts': [
        "import { defineConfig, definePlugin, defaultPlugins, z } from 'yoi';",
        "const jira = definePlugin({ name: 'acme:jira', options: z.object({ baseUrl: z.url() }), apply() {} });",
        "export default defineConfig({ plugins: [...defaultPlugins(), jira({ baseUrl: 'https://jira.acme.dev' })] });",
      ].join('\n'),
    });
    const config = await load(p.root, { virtualModules: yoiModule });
    const { defaultPlugins } = await import('../../../plugins/index.js');
    expect(config.plugins.map((x) => x.name)).toEqual([...defaultPlugins().map((x) => x.name), 'acme:jira']);
    expect(config.plugins.at(-1)?.options).toEqual({ baseUrl: 'https://jira.acme.dev' });
  });

  it('names the file when a plugin in it gets bad options', async () => {
    const p = project({
      'yoi.config.ts':
        "import { definePlugin, z } from 'yoi';\nconst jira = definePlugin({ name: 'acme:jira', options: z.object({ baseUrl: z.url() }), apply() {} });\nexport default { plugins: [jira({ baseUrl: 'nope' })] };",
    });
    await expect(load(p.root, { virtualModules: yoiModule })).rejects.toMatchObject({
      code: 'YOI_ERR_PLUGIN_OPTIONS',
      message: 'yoi.config.ts: plugin acme:jira: invalid options: baseUrl: Invalid URL',
    });
  });

  it('rejects plugin entries not made with definePlugin()', async () => {
    const p = project({
      'yoi.config.mjs': "const f = () => ({});\nexport default { plugins: [{ name: 'x', apply() {} }, f] };",
    });
    await expect(load(p.root)).rejects.toThrow(
      'yoi.config.mjs: plugins[0]: expected a plugin made with definePlugin() (and 1 more)',
    );
  });
});

describe('loadConfig: errors are one line naming the file and the key', () => {
  const cases: [string, Record<string, string>, string][] = [
    [
      'wrong type',
      { 'yoi.config.ts': 'export default { model: { provider: 42 } };' },
      'yoi.config.ts: model.provider: expected string',
    ],
    [
      'unknown key',
      { 'yoi.config.ts': "export default { modle: { provider: 'echo' } };" },
      'yoi.config.ts: modle: unknown key (did you mean "model"?)',
    ],
    [
      'nested unknown key',
      { 'yoi.config.json': '{"limits":{"maxLineByte":1}}' },
      'yoi.config.json: limits.maxLineByte: unknown key (did you mean "maxLineBytes"?)',
    ],
    [
      'bad enum',
      { 'yoi.config.json': '{"scope":{"allow":[{"target":"/","permission":"admin"}]}}' },
      'yoi.config.json: scope.allow[0].permission: expected "read" or "write"',
    ],
    ['bad number', { 'yoi.config.json': '{"maxTurns":0}' }, 'yoi.config.json: maxTurns: must be ≥ 1'],
    [
      'not an integer',
      { 'yoi.config.json': '{"compaction":{"threshold":1.5}}' },
      'yoi.config.json: compaction.threshold: expected an integer',
    ],
    ['not an object', { 'yoi.config.json': '[1]' }, 'yoi.config.json: expected object'],
    [
      'input budget below one line',
      { 'yoi.config.json': '{"limits":{"inputBufferBytes":1024}}' },
      'yoi.config.json: limits.inputBufferBytes: must be at least limits.maxLineBytes (one line must fit)',
    ],
    [
      'in package.json',
      { 'package.json': '{"yoi":{"model":{}}}' },
      'package.json: yoi.model.provider: expected string',
    ],
    [
      'ts syntax error',
      { 'yoi.config.ts': "export default {\n  name: 'x',,\n};" },
      'yoi.config.ts:2:12: syntax error: Unexpected token',
    ],
    [
      'json syntax error',
      { 'yoi.config.json': '{\n  "name": "x",\n}' },
      'yoi.config.json:3:1: invalid JSON: Expected double-quoted property name',
    ],
    [
      'yaml syntax error',
      { '.yoirc.yaml': 'name: a\n  maxTurns: 2\n' },
      '.yoirc.yaml:2:11: syntax error: bad indentation of a mapping entry',
    ],
    [
      'throw at load',
      { 'yoi.config.ts': "throw new Error('JIRA_TOKEN is not set');" },
      'yoi.config.ts: failed to load: JIRA_TOKEN is not set',
    ],
    [
      'no default export',
      { 'yoi.config.mjs': 'export const name = 1;' },
      'yoi.config.mjs: failed to load: the file has no default export: write `export default { ... }`',
    ],
    [
      'default export null',
      { 'yoi.config.ts': 'export default null;' },
      'yoi.config.ts: expected an object, not null (an empty object `{}` gives all defaults)',
    ],
    [
      'default export undefined',
      { 'yoi.config.ts': 'export default undefined;' },
      'yoi.config.ts: expected an object, not undefined (an empty object `{}` gives all defaults)',
    ],
    [
      'json null',
      { 'yoi.config.json': 'null' },
      'yoi.config.json: expected an object, not null (an empty object `{}` gives all defaults)',
    ],
  ];
  it.each(cases)('%s', async (_name, files, message) => {
    const p = project(files);
    const error = await load(p.root).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toBe(message);
    expect(error?.message).not.toContain('\n');
    expect(error?.message).not.toContain(p.root);
  });

  it("a `null` config is an error, not a reason to search on and take the parent directory's", async () => {
    const p = tempProject({ 'yoi.config.json': '{"name":"parent"}', 'child/yoi.config.json': 'null' });
    projects.push(p);
    await expect(load(path.join(p.root, 'child'))).rejects.toThrow(
      'yoi.config.json: expected an object, not null (an empty object `{}` gives all defaults)',
    );
  });

  it('a default export that is a promise is awaited; one that never settles is an error, not a silent exit', async () => {
    const ok = project({ 'yoi.config.ts': "export default Promise.resolve({ name: 'later' });" });
    expect((await load(ok.root)).name).toBe('later');
    const cjs = project({ 'yoi.config.cjs': "module.exports = { __esModule: true, default: { name: 'compiled' } };" });
    expect((await load(cjs.root)).name).toBe('compiled');
    const never = project({ 'yoi.config.ts': 'export default new Promise(() => {});' });
    await expect(load(never.root)).rejects.toThrow(
      'yoi.config.ts: its default export is a promise that did not settle within 10 s',
    );
  }, 20_000);

  it('a failing import names the file (the exact text comes from the resolver)', async () => {
    const p = project({ 'yoi.config.ts': "import x from './nope.js';\nexport default x;" });
    const error = await load(p.root).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^yoi\.config\.ts: failed to load: \S/);
    expect(error?.message).not.toContain('\n');
  });

  it('names the file relative to the cwd', async () => {
    const p = project({ 'yoi.config.json': '{"nmae":"x"}', 'sub/dir/.keep': '' });
    await expect(load(p.path('sub', 'dir'))).rejects.toThrow(
      `${path.join('..', '..', 'yoi.config.json')}: nmae: unknown key (did you mean "name"?)`,
    );
  });
});
