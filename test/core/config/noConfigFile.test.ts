import { afterEach, describe, expect, it } from '@jest/globals';
import { cosmiconfig } from 'cosmiconfig';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findConfigFile } from '../../../core/config/findConfigFile.js';
import { loadConfig } from '../../../core/config/loadConfig.js';
import { surelyNoConfigFile } from '../../../core/config/noConfigFile.js';
import { SEARCH_OPTIONS, SEARCH_PLACES } from '../../../core/config/searchPlaces.js';

const home = process.cwd();
const dirs: string[] = [];
afterEach(() => {
  process.chdir(home);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** `<tmp>/a/b/c`, the process's cwd moved into it (cosmiconfig's meta config is looked for there). */
function nested(): { root: string; a: string; cwd: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-nocfg-')));
  dirs.push(root);
  const cwd = path.join(root, 'a', 'b', 'c');
  fs.mkdirSync(cwd, { recursive: true });
  process.chdir(cwd);
  return { root, a: path.join(root, 'a'), cwd };
}

/** What cosmiconfig's own search (as loadConfig runs it) finds, without running any file. */
async function cosmiconfigFinds(cwd: string): Promise<string | null> {
  const found = () => ({});
  const explorer = cosmiconfig('yoi', {
    ...SEARCH_OPTIONS,
    searchPlaces: [...SEARCH_OPTIONS.searchPlaces],
    loaders: {
      '.ts': found,
      '.js': found,
      '.mjs': found,
      '.cjs': found,
      '.json': found,
      '.yaml': found,
      '.yml': found,
      noExt: found,
    },
  });
  return (await explorer.search(cwd))?.filepath ?? null;
}

describe('surelyNoConfigFile', () => {
  it('is true in a tree without any config file, where cosmiconfig finds nothing either', async () => {
    const { root, cwd } = nested();
    // What lies above the temp dir is the machine's: a /tmp/package.json would make it unsure (slower, never wrong).
    const above: string[] = [];
    for (let d = path.dirname(root); ; d = path.dirname(d)) {
      above.push(d);
      if (path.dirname(d) === d) break;
    }
    const clean = above.every((d) => [...SEARCH_PLACES, 'package.yaml'].every((p) => !fs.existsSync(path.join(d, p))));
    expect(surelyNoConfigFile(cwd)).toBe(clean);
    expect(await cosmiconfigFinds(cwd)).toBeNull();
  });

  it.each([...SEARCH_PLACES, 'package.yaml'])(
    'is false when %s is in the cwd or a directory above it (even empty)',
    (place) => {
      const { a, cwd } = nested();
      fs.writeFileSync(path.join(a, place), '');
      expect(surelyNoConfigFile(cwd)).toBe(false);
      fs.rmSync(path.join(a, place));
      fs.writeFileSync(path.join(cwd, place), '');
      expect(surelyNoConfigFile(cwd)).toBe(false);
    },
  );

  it('is false with a dangling link or a file where a directory should be; a meta config is no config (yoi reads none)', () => {
    const { root, cwd } = nested();
    fs.mkdirSync(path.join(cwd, '.config'));
    fs.writeFileSync(
      path.join(cwd, '.config', 'config.json'),
      JSON.stringify({ cosmiconfig: { searchPlaces: ['x.js'] } }),
    );
    expect(surelyNoConfigFile(cwd)).toBe(true);
    fs.rmSync(path.join(cwd, '.config'), { recursive: true });
    fs.symlinkSync(path.join(root, 'nowhere.json'), path.join(cwd, 'yoi.config.json'));
    expect(surelyNoConfigFile(cwd)).toBe(false);
    fs.rmSync(path.join(cwd, 'yoi.config.json'));
    // A file where the search expects a directory: not "no such file", so cosmiconfig decides.
    const file = path.join(root, 'plain');
    fs.writeFileSync(file, '');
    expect(surelyNoConfigFile(path.join(file, 'sub'))).toBe(false);
  });
});

describe('loading without a config file', () => {
  it('gives the defaults and no config path, as the cosmiconfig search did', async () => {
    const { cwd } = nested();
    const config = await loadConfig({ cwd });
    expect(config.configPath).toBeNull();
    expect(config.modelIsDefault).toBe(true);
    expect(await findConfigFile({ cwd })).toBeNull();
    // The same directory with a config file: found, whichever way the search goes.
    fs.writeFileSync(path.join(path.dirname(cwd), 'yoi.config.json'), JSON.stringify({ name: 'up' }));
    expect((await loadConfig({ cwd })).configPath).toBe(path.join(path.dirname(cwd), 'yoi.config.json'));
    expect(await findConfigFile({ cwd })).toBe(path.join(path.dirname(cwd), 'yoi.config.json'));
  });
});
