import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeProject } from '../support/startTestPod.js';
import { yoi } from '../support/runCli.js';
import { asOther, otherUser, sharedTmp, type OtherUser } from '../support/otherUser.js';

/**
 * jiti caches compiled config files and reuses an entry whose trailer matches the source's
 * hash. Its default cache is `<tmpdir>/jiti`, which another local user can create first and
 * fill with entries for a config she can read (a public repository): every later load runs her
 * code. yoi keeps that cache in the user's own `$XDG_CACHE_HOME/yoi/jiti` and uses none when
 * that directory is not the user's.
 */

const other = otherUser();
if ('skip' in other) console.warn(`skipped: ${other.skip}`);
const JITI = fileURLToPath(new URL('../../node_modules/jiti/lib/jiti.mjs', import.meta.url));

describe.each('skip' in other ? [] : [other as OtherUser])('the compiled-config cache', (her) => {
  it("is the user's own: entries another user planted never run", () => {
    const tmp = sharedTmp();
    const dir = fs.realpathSync(
      makeProject({
        'yoi.config.ts': "import { b } from './b.ts';\nexport default { name: 'app-' + b };\n",
        'b.ts': 'export const b = 1;\n',
      }),
    );
    const pwned = path.join(tmp, 'PWNED');
    // A legitimate run tells the entries' names and trailers (she can compute them: names hash
    // the file's path, trailers its content).
    const own = path.join(dir, 'own-cache');
    expect(yoi(['config', '--json'], { cwd: dir, env: { XDG_CACHE_HOME: own } }).status).toBe(0);
    const entries = fs.readdirSync(path.join(own, 'yoi', 'jiti'));
    expect(entries.length).toBe(2);
    const poison = (into: string) => {
      for (const name of entries) {
        const trailer = fs
          .readFileSync(path.join(own, 'yoi', 'jiti', name), 'utf8')
          .match(/ \/\* v\d+-[0-9a-f]+ \*\/\n$/)![0];
        const body = `require('fs').writeFileSync(${JSON.stringify(pwned)}, 'ran');exports.b = 666;exports.default = { name: 'pwned' };`;
        asOther(her, `require('fs').writeFileSync(process.argv[1], process.argv[2])`, [
          path.join(into, name),
          body + trailer,
        ]);
      }
    };
    const herJiti = path.join(tmp, 'jiti');
    asOther(her, `const fs = require('fs'); fs.mkdirSync(process.argv[1]); fs.chmodSync(process.argv[1], 0o777);`, [
      herJiti,
    ]);
    poison(herJiti);

    // The attack is real: jiti with its default cache location runs her code.
    const before = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `
      import { createJiti } from ${JSON.stringify(JITI)};
      const jiti = createJiti(${JSON.stringify(path.join(dir, 'x.js'))}, { fsCache: true, moduleCache: false });
      const m = await jiti.import(${JSON.stringify(path.join(dir, 'yoi.config.ts'))});
      console.log(m.default.name);`,
      ],
      { cwd: dir, env: { ...process.env, TMPDIR: tmp }, encoding: 'utf8' },
    );
    expect(before.stdout.trim()).toBe('pwned');
    expect(fs.existsSync(pwned)).toBe(true);
    fs.rmSync(pwned);

    // yoi does not look there, and refuses her cache directory where it would look.
    const mine = yoi(['config', '--json'], { cwd: dir, env: { TMPDIR: tmp, XDG_CACHE_HOME: path.join(dir, 'fresh') } });
    expect(JSON.parse(mine.stdout).name).toBe('app-1');
    const hersToo = path.join(tmp, 'cache');
    asOther(
      her,
      `const fs = require('fs'); fs.mkdirSync(process.argv[1] + '/yoi/jiti', { recursive: true });
      for (const d of ['', '/yoi', '/yoi/jiti']) fs.chmodSync(process.argv[1] + d, 0o777);`,
      [hersToo],
    );
    poison(path.join(hersToo, 'yoi', 'jiti'));
    const refused = yoi(['config', '--json'], { cwd: dir, env: { TMPDIR: tmp, XDG_CACHE_HOME: hersToo } });
    expect(refused.stderr).toBe('');
    expect(JSON.parse(refused.stdout).name).toBe('app-1');
    expect(fs.existsSync(pwned)).toBe(false);
  });
});
