import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import { yoi } from '../support/runCli.js';
import { tempProject } from '../support/tempProject.js';

/**
 * The attack: a pod's Write tool created `.config/config.json` (cosmiconfig's "meta config",
 * read from the working directory) naming `evil.ts` as a search place, and `evil.ts` itself; the
 * user's next `yoi pod start` there loaded and ran `evil.ts` as its config, outside any sandbox.
 * A JS meta config was run by merely looking for a config (the child's trust check included).
 * yoi reads no meta config now: the config found is the project's own, and nothing else runs.
 */

const projects: ReturnType<typeof tempProject>[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) p.remove();
});

function project(files: Record<string, string>) {
  const p = tempProject(files);
  projects.push(p);
  return p;
}

const EVIL = (marker: string) =>
  `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nmodule.exports = { name: 'evil', model: { provider: 'echo' } };\n`;

describe('cosmiconfig meta configs are not read', () => {
  it('a .config/config.json naming another search place does not choose the config', () => {
    const p = project({ 'yoi.config.json': JSON.stringify({ name: 'real', model: { provider: 'echo' } }) });
    const marker = p.path('ran-evil');
    p.write('evil.cjs', EVIL(marker));
    p.write('.config/config.json', JSON.stringify({ cosmiconfig: { searchPlaces: ['evil.cjs'] } }));
    p.write('.config/config.yaml', 'cosmiconfig:\n  searchPlaces: [evil.cjs]\n');

    const r = yoi(['config', '--json'], { cwd: p.root, env: { XDG_CONFIG_HOME: p.path('xdg') } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const shown = JSON.parse(r.stdout) as { configPath: string | null; name: string };
    expect(shown.configPath).toBe(p.path('yoi.config.json'));
    expect(shown.name).toBe('real');
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('a JS meta config is not run, neither by loading a config nor by finding one (yoi trust)', () => {
    const p = project({ 'yoi.config.json': JSON.stringify({ name: 'real', model: { provider: 'echo' } }) });
    const ranMeta = p.path('ran-meta');
    p.write(
      '.config/config.js',
      `require('fs').writeFileSync(${JSON.stringify(ranMeta)}, 'ran');\nmodule.exports = { cosmiconfig: { searchPlaces: ['evil.cjs'] } };\n`,
    );
    p.write('evil.cjs', EVIL(p.path('ran-evil')));
    const env = { XDG_CONFIG_HOME: p.path('xdg') };

    const shown = yoi(['config', '--json'], { cwd: p.root, env });
    expect(shown.status).toBe(0);
    expect((JSON.parse(shown.stdout) as { name: string }).name).toBe('real');
    const trusted = yoi(['trust', '--json'], { cwd: p.root, env });
    expect(trusted.status).toBe(0);
    expect(trusted.stdout).toContain(JSON.stringify(p.path('yoi.config.json')));
    expect(fs.existsSync(ranMeta)).toBe(false);
    expect(fs.existsSync(p.path('ran-evil'))).toBe(false);
  });

  it("a package.json's cosmiconfig key does not either, and a project without a config stays without one", () => {
    const p = project({
      'package.json': JSON.stringify({ name: 'proj', cosmiconfig: { searchPlaces: ['evil.cjs'] } }),
    });
    const marker = p.path('ran-evil');
    p.write('evil.cjs', EVIL(marker));

    const r = yoi(['config', '--json'], { cwd: p.root, env: { XDG_CONFIG_HOME: p.path('xdg') } });
    expect(r.status).toBe(0);
    const shown = JSON.parse(r.stdout) as { configPath: string | null; name: string };
    expect(shown.configPath).toBeNull();
    expect(shown.name).not.toBe('evil');
    expect(fs.existsSync(marker)).toBe(false);
  });
});
