import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { configSources } from '../../../core/config/configSources.js';
import { loadConfig } from '../../../core/config/loadConfig.js';
import { TrustStore } from '../../../core/config/TrustStore.js';
import { tempProject } from '../../support/tempProject.js';

const projects: ReturnType<typeof tempProject>[] = [];
afterEach(() => projects.splice(0).forEach((p) => p.remove()));

/** A config that leaves a marker file when it runs. */
const RUNS = (marker: string) =>
  `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(marker)}, 'ran');\nexport default { name: 'planted' };\n`;

// The attack: a pod's Write tool created `src/yoi.config.ts` in its project; the user's next
// `yoi send` from `src/` found it and ran it, outside the sandbox.
describe('a config inside another yoi project', () => {
  it('is not run until the user trusts its content; the project own config needs no trust', async () => {
    const p = tempProject({ 'yoi.config.json': '{"name":"outer"}', '.yoi/sessions/.keep': '' });
    projects.push(p);
    const env = { XDG_CONFIG_HOME: p.path('xdg'), HOME: '/nonexistent-home' };
    const planted = p.write('src/yoi.config.ts', RUNS(p.path('ran')));
    fs.mkdirSync(p.path('lib'));

    await expect(loadConfig({ cwd: p.path('src'), env })).rejects.toMatchObject({
      code: 'YOI_ERR_CONFIG_UNTRUSTED',
      message: `config ${planted} is inside the yoi project ${p.root}, whose pods can write it: check it, then run \`yoi trust\` in ${p.path('src')} to load it`,
    });
    expect(fs.existsSync(p.path('ran'))).toBe(false);
    // The project's own config, from its directory and from a subdirectory without one.
    expect((await loadConfig({ cwd: p.root, env })).name).toBe('outer');
    expect((await loadConfig({ cwd: p.path('lib'), env })).name).toBe('outer');
    // Named on the command line it is the user's choice.
    expect((await loadConfig({ cwd: p.root, env, configFile: planted })).name).toBe('planted');
    fs.rmSync(p.path('ran'));

    const sources = await configSources(planted);
    new TrustStore(env).trust({
      path: planted,
      digest: sources.digest,
      files: sources.files.map((f) => f.path),
      trusted_at: 1,
    });
    expect((await loadConfig({ cwd: p.path('src'), env })).name).toBe('planted');
    // Trust is for that content: the pod changing it again is refused again.
    p.write('src/yoi.config.ts', RUNS(p.path('ran-again')));
    await expect(loadConfig({ cwd: p.path('src'), env })).rejects.toMatchObject({ code: 'YOI_ERR_CONFIG_UNTRUSTED' });
    expect(fs.existsSync(p.path('ran-again'))).toBe(false);
  });

  it('a project above the home directory does not count (every project of the user would need trust)', async () => {
    const p = tempProject({
      '.yoi/sessions/.keep': '',
      'home/work/yoi.config.json': '{"name":"mine"}',
      'home/yoi.config.json': '{"name":"home"}',
    });
    projects.push(p);
    const env = { XDG_CONFIG_HOME: p.path('xdg'), HOME: p.path('home') };
    expect((await loadConfig({ cwd: p.path('home/work'), env })).name).toBe('mine');
    expect((await loadConfig({ cwd: p.path('home'), env })).name).toBe('home'); // the home's own
    await expect(loadConfig({ cwd: p.path('home/work'), env: { ...env, HOME: '/nonexistent-home' } })).rejects.toThrow(
      /is inside the yoi project/,
    );
  });
});
