import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { NO_CONFIG_DIGEST, configSources } from '../../../core/config/configSources.js';
import { findConfigFile } from '../../../core/config/findConfigFile.js';
import { loadConfig } from '../../../core/config/loadConfig.js';
import { MAX_TRUSTED, TrustStore } from '../../../core/config/TrustStore.js';
import { verifyConfigTrust } from '../../../core/config/verifyConfigTrust.js';
import { asOther, otherUser, sharedTmp } from '../../support/otherUser.js';
import { tempProject } from '../../support/tempProject.js';

// Evaluating this module leaves a file behind: proof that something ran it.
const RUNS = (marker: string) =>
  `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(marker)}, 'ran');\nexport default {};\n`;

describe('configSources (the digest a spawned pod compares)', () => {
  it('covers the config and every local module it imports statically, not packages or builtins', async () => {
    const p = tempProject({
      'yoi.config.ts': [
        "import { a } from './lib/a.js';", // .js naming a .ts file, as TypeScript writes it
        "export * from './lib/b';",
        "import type { T } from './lib/types';", // erased: never run, not part of the config
        "export type { U } from './lib/moreTypes';",
        "import type from './lib/typeNamedValue';", // a value import whose binding is called `type`
        "import { type V, v } from './lib/mixed';",
        "const c = await import('./lib/c.ts');",
        "const n = await import('./lib/' + 'computed.ts');", // a computed name is not seen
        "import fs from 'node:fs';",
        "import { z } from 'yoi';",
        "import dep from 'dep';",
        'export default { a, c, n, fs, z, dep };',
      ].join('\n'),
      'lib/a.ts': "import data from '../data.json';\nexport const a = data;\n",
      'lib/b.ts': "const r = require('./r.cjs');\nexport const b = r;\n",
      'lib/types.ts': 'export type T = 1;\n',
      'lib/moreTypes.ts': 'export type U = 1;\n',
      'lib/typeNamedValue.ts': 'export default 1;\n',
      'lib/mixed.ts': 'export type V = 1;\nexport const v = 1;\n',
      'lib/c.ts': 'export default 1;\n',
      'lib/computed.ts': 'export default 2;\n',
      'lib/r.cjs': 'module.exports = 3;\n',
      'data.json': '{"x":1}',
      'node_modules/dep/index.js': 'export default 4;\n',
      'node_modules/dep/package.json': '{"name":"dep","main":"index.js"}',
    });
    const sources = await configSources(p.path('yoi.config.ts'));
    expect(sources.files.map((f) => path.relative(p.root, f.path)).sort()).toEqual([
      'data.json',
      'lib/a.ts',
      'lib/b.ts',
      'lib/c.ts',
      'lib/mixed.ts',
      'lib/r.cjs',
      'lib/typeNamedValue.ts',
      'yoi.config.ts',
    ]);
    expect(sources.digest).toMatch(/^[0-9a-f]{64}$/);
    expect((await configSources(p.path('yoi.config.ts'))).digest).toBe(sources.digest);
    // Any covered file changing changes the digest; the computed import does not.
    p.write('lib/computed.ts', 'export default 5;\n');
    p.write('lib/types.ts', 'export type T = 2;\n');
    expect((await configSources(p.path('yoi.config.ts'))).digest).toBe(sources.digest);
    p.write('data.json', '{"x":2}');
    expect((await configSources(p.path('yoi.config.ts'))).digest).not.toBe(sources.digest);
  });

  it('lists the paths that would take the place of an import if created, not the files imported', async () => {
    const p = tempProject({
      'yoi.config.ts': "import { x } from './helpers';\nimport { y } from './lib/y.js';\nexport default { x, y };\n",
      'helpers/index.ts': 'export const x = 1;\n',
      'lib/y.ts': 'export const y = 2;\n',
    });
    const { files, shadows } = await configSources(p.path('yoi.config.ts'));
    expect(files.map((f) => path.relative(p.root, f.path)).sort()).toEqual([
      'helpers/index.ts',
      'lib/y.ts',
      'yoi.config.ts',
    ]);
    const rel = shadows.map((s) => path.relative(p.root, s));
    // `./helpers` (a directory): a file of that name with any extension, another index, a package.json.
    expect(rel).toEqual(
      expect.arrayContaining(['helpers.ts', 'helpers.js', 'helpers/index.js', 'helpers/package.json']),
    );
    // `./lib/y.js` found as lib/y.ts: the .js file itself would win.
    expect(rel).toEqual(expect.arrayContaining(['lib/y.js', 'lib/y.mjs']));
    expect(rel).not.toContain('helpers'); // an existing directory is not protected as a whole
    expect(rel).not.toContain('helpers/index.ts');
    expect(rel).not.toContain('lib/y.ts');
  });

  it('plain data counts whole; package.json counts with its yoi key only; no config has a digest of its own', async () => {
    const p = tempProject({ 'yoi.config.json': '{"name":"a"}', 'package.json': '{"name":"app","yoi":{"name":"a"}}' });
    const json = await configSources(p.path('yoi.config.json'));
    expect(json.files.map((f) => f.path)).toEqual([p.path('yoi.config.json')]);
    const pkg = await configSources(p.path('package.json'));
    p.write('package.json', '{\n  "name": "app",\n  "version": "2.0.0",\n  "yoi": { "name": "a" }\n}\n');
    expect((await configSources(p.path('package.json'))).digest).toBe(pkg.digest);
    p.write('package.json', '{"name":"app","yoi":{"name":"b"}}');
    expect((await configSources(p.path('package.json'))).digest).not.toBe(pkg.digest);
    expect(await configSources(null)).toEqual({ files: [], digest: NO_CONFIG_DIGEST, shadows: [] });
    expect(json.digest).not.toBe(NO_CONFIG_DIGEST);
  });

  it('a type-only import is not run when the config loads, so it is not part of the config', async () => {
    const p = tempProject({});
    const marker = p.path('ran');
    p.write('yoi.config.ts', "import type { T } from './lib/types';\nexport default { name: 'typed' };\n");
    p.write('lib/types.ts', `export type T = 1;\n${RUNS(marker)}`);
    const config = await loadConfig({ cwd: p.root, env: { XDG_CACHE_HOME: p.path('cache') } });
    expect(config.name).toBe('typed');
    expect(fs.existsSync(marker)).toBe(false);
    const { files } = await configSources(p.path('yoi.config.ts'));
    expect(files.map((f) => path.relative(p.root, f.path))).toEqual(['yoi.config.ts']);
  });

  // (What jiti loaded, a dynamic import included, is checked in a real process by
  // test/cli/controlPlane.test.ts: jest's module registry hides Node's require cache.)
  it("loadConfig records the digest and the config's files", async () => {
    const p = tempProject({
      'yoi.config.ts': "const m = await import('./lib/' + 'dyn.ts');\nexport default { name: m.name };\n",
      'lib/dyn.ts': "export const name = 'dyn';\n",
    });
    const config = await loadConfig({ cwd: p.root, env: { XDG_CACHE_HOME: p.path('cache') } });
    expect(config.name).toBe('dyn');
    expect(config.configDigest).toBe((await configSources(p.path('yoi.config.ts'))).digest);
    expect(config.configFiles).toContain(p.path('yoi.config.ts'));
    // jiti's compiled files go to the user's own cache directory, 0700.
    expect(fs.readdirSync(p.path('cache/yoi/jiti')).length).toBeGreaterThan(0);
    expect(fs.statSync(p.path('cache/yoi/jiti')).mode & 0o777).toBe(0o700);
  });
});

describe('finding the config without running it', () => {
  it('finds a JS/TS config by the same search as loadConfig, without evaluating it', async () => {
    const p = tempProject({ 'package.json': '{"name":"x"}', 'sub/dir/.keep': '' });
    p.write('yoi.config.ts', RUNS(p.path('ran')));
    expect(await findConfigFile({ cwd: p.path('sub/dir'), env: {} })).toBe(p.path('yoi.config.ts'));
    expect(fs.existsSync(p.path('ran'))).toBe(false);
    expect(await findConfigFile({ cwd: p.root, env: { YOI_CONFIG: 'other.ts' } })).toBe(p.path('other.ts'));
    expect(await findConfigFile({ cwd: p.root, configFile: 'x.json', env: { YOI_CONFIG: 'other.ts' } })).toBe(
      p.path('x.json'),
    );
    const none = tempProject({ 'package.json': '{"name":"x"}' });
    expect(await findConfigFile({ cwd: none.root, env: {} })).toBeNull();
  });
});

describe('verifyConfigTrust (a spawned pod, before loading its config)', () => {
  it("accepts the parent's content, refuses a change without running it, accepts it once trusted", async () => {
    const p = tempProject({ 'yoi.config.ts': 'export default {};\n' });
    const env = { XDG_CONFIG_HOME: p.path('xdg') };
    const expected = (await configSources(p.path('yoi.config.ts'))).digest;
    const options = { cwd: p.root, configFile: p.path('yoi.config.ts'), env, expected };
    expect((await verifyConfigTrust(options)).digest).toBe(expected);

    p.write('yoi.config.ts', RUNS(p.path('ran')));
    await expect(verifyConfigTrust(options)).rejects.toMatchObject({
      code: 'YOI_ERR_CONFIG_UNTRUSTED',
      message: `config ${p.path('yoi.config.ts')} changed since the spawning pod loaded it; a spawned pod loads a changed config only once you trust it: run \`yoi trust\` in ${p.root}`,
    });
    expect(fs.existsSync(p.path('ran'))).toBe(false);

    const now = await configSources(p.path('yoi.config.ts'));
    new TrustStore(env).trust({
      path: p.path('yoi.config.ts'),
      digest: now.digest,
      files: now.files.map((f) => f.path),
      trusted_at: 1,
    });
    expect((await verifyConfigTrust(options)).digest).toBe(now.digest);
    // Trust is for that content: another change is refused again.
    p.write('yoi.config.ts', 'export default { name: "x" };\n');
    await expect(verifyConfigTrust(options)).rejects.toMatchObject({ code: 'YOI_ERR_CONFIG_UNTRUSTED' });
  });

  it('a config that appeared where the parent had none is refused too', async () => {
    const p = tempProject({ 'package.json': '{"name":"x"}' });
    p.write('.yoirc.json', '{"name":"planted"}');
    await expect(
      verifyConfigTrust({ cwd: p.root, env: { XDG_CONFIG_HOME: p.path('xdg') }, expected: NO_CONFIG_DIGEST }),
    ).rejects.toMatchObject({
      code: 'YOI_ERR_CONFIG_UNTRUSTED',
      message: `config ${p.path('.yoirc.json')} appeared since the spawning pod started without one; a spawned pod loads a changed config only once you trust it: run \`yoi trust\` in ${p.root}`,
    });
  });
});

describe('the trust store', () => {
  const entry = (n: number) => ({
    path: `/p/${n}/yoi.config.ts`,
    digest: n.toString(16).padStart(64, '0'),
    files: [`/p/${n}/yoi.config.ts`],
    trusted_at: n,
  });

  it('0600 in a 0700 directory; one entry per config; bounded', () => {
    const p = tempProject();
    const store = new TrustStore({ XDG_CONFIG_HOME: p.path('xdg') });
    expect(store.file).toBe(p.path('xdg/yoi/trust.json'));
    expect(store.read()).toEqual({ version: 1, configs: [] });
    store.trust(entry(1));
    store.trust({ ...entry(1), digest: 'f'.repeat(64) });
    expect(store.read().configs).toEqual([{ ...entry(1), digest: 'f'.repeat(64) }]);
    expect(store.isTrusted('/p/1/yoi.config.ts', 'f'.repeat(64))).toBe(true);
    expect(store.isTrusted('/p/1/yoi.config.ts', entry(1).digest)).toBe(false);
    expect(fs.statSync(store.file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(store.file)).mode & 0o777).toBe(0o700);
    for (let i = 2; i <= MAX_TRUSTED + 5; i++) store.trust(entry(i));
    const configs = store.read().configs;
    expect(configs).toHaveLength(MAX_TRUSTED);
    expect(configs[0].trusted_at).toBe(6);
    // Without XDG_CONFIG_HOME: ~/.config/yoi.
    expect(new TrustStore({ HOME: '/home/u' }).file).toBe('/home/u/.config/yoi/trust.json');
  });

  it('a damaged store is one clear error and is not overwritten', () => {
    const p = tempProject();
    const store = new TrustStore({ XDG_CONFIG_HOME: p.path('xdg') });
    fs.mkdirSync(path.dirname(store.file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(store.file, '{"version":1,"configs":[{"path":"/x"}]}', { mode: 0o600 });
    const expected = expect.objectContaining({
      code: 'YOI_ERR_TRUST_STORE',
      message: expect.stringMatching(
        /^the trust store .*trust\.json cannot be used: configs\[0\]\.digest: .*; fix or remove it, then run yoi trust again$/,
      ),
    });
    expect(() => store.read()).toThrow(expected);
    expect(() => store.trust(entry(1))).toThrow(expected);
    expect(fs.readFileSync(store.file, 'utf8')).toBe('{"version":1,"configs":[{"path":"/x"}]}');
  });

  const other = otherUser();
  ('skip' in other ? it.skip : it)(
    'a store another user planted (or made a link to hers) is refused, never read',
    () => {
      const her = other as Exclude<typeof other, { skip: string }>;
      const tmp = sharedTmp();
      const xdg = path.join(tmp, 'xdg');
      asOther(
        her,
        `const fs = require('fs'); fs.mkdirSync(process.argv[1] + '/yoi', { recursive: true });
      fs.writeFileSync(process.argv[1] + '/yoi/trust.json', JSON.stringify({ version: 1, configs: [] }));`,
        [xdg],
      );
      const store = new TrustStore({ XDG_CONFIG_HOME: xdg });
      expect(() => store.isTrusted('/x', 'a'.repeat(64))).toThrow(
        expect.objectContaining({
          code: 'YOI_ERR_UNTRUSTED_PATH',
          message: expect.stringContaining(`is owned by uid ${her.uid}`),
        }),
      );
      expect(() => store.trust(entry(1))).toThrow(expect.objectContaining({ code: 'YOI_ERR_UNTRUSTED_PATH' }));
      // Our own directory, her file behind a link in it.
      const mine = path.join(tmp, 'mine');
      fs.mkdirSync(path.join(mine, 'yoi'), { recursive: true, mode: 0o700 });
      fs.symlinkSync(path.join(xdg, 'yoi', 'trust.json'), path.join(mine, 'yoi', 'trust.json'));
      expect(() => new TrustStore({ XDG_CONFIG_HOME: mine }).read()).toThrow(
        `trust store ${path.join(mine, 'yoi', 'trust.json')} is a symbolic link`,
      );
    },
  );
});
