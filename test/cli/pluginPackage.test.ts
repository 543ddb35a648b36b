import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * yoi as a user gets it: the tarball `npm pack` makes, installed into a temp project next to a
 * plugin that is its own package (examples/yoi-plugin-tickets, built, tested and packed there).
 * The project's typed yoi.config.ts is checked with tsc, and the installed `yoi` bin starts a pod
 * that resolves the plugin's kind sent with `yoi send --segment`.
 *
 * Needs the build (`npm test` builds first): the tarball is packed with --ignore-scripts, since
 * prepack's build would replace dist/ under the other suites. yoi's dependencies come from the
 * npm cache the repository's own install filled (--prefer-offline), the registry only for what is
 * missing there; --ignore-scripts keeps installs offline (@vscode/ripgrep's postinstall would
 * download rg, which nothing here runs).
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE = path.join(ROOT, 'examples/yoi-plugin-tickets');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const INSTALL_MS = 8 * 60_000;

const npmVersion = spawnSync('npm', ['--version'], { encoding: 'utf8' });
const npmOk = npmVersion.status === 0;
const built = fs.existsSync(path.join(ROOT, 'dist/index.js')) && fs.existsSync(path.join(ROOT, 'oclif.manifest.json'));
if (!npmOk) console.warn('skipping the packaging test: npm is not available');
const describeNpm = npmOk ? describe : describe.skip;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeout = 3 * 60_000): Run {
  const r = spawnSync(cmd, args, {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout,
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs and expects success, showing the output when it fails. */
function ok(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeout?: number): Run {
  const r = run(cmd, args, cwd, env, timeout);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

const NPM_INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'];

/** `npm pack` in `dir` into `dest`; the tarball's path and the files it holds. */
function pack(dir: string, dest: string): { tarball: string; files: string[] } {
  const r = ok('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], dir);
  const [info] = JSON.parse(r.stdout) as { filename: string; files: { path: string }[] }[];
  return { tarball: path.join(dest, info.filename), files: info.files.map((f) => f.path) };
}

function copyDir(from: string, to: string): void {
  fs.cpSync(from, to, { recursive: true, filter: (src) => !/[/\\](node_modules|dist)$/.test(src) });
}

describeNpm('a plugin as its own package, with yoi installed from its tarball', () => {
  const temp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-pkg-')));
  const project = path.join(temp, 'project');
  const plugin = path.join(project, 'yoi-plugin-tickets');
  const bin = path.join(project, 'node_modules/.bin');
  const env = { YOI_RUNTIME_DIR: path.join(temp, 'run'), XDG_CONFIG_HOME: path.join(temp, 'xdg'), NO_COLOR: '1' };
  let yoiPack: { tarball: string; files: string[] };
  let pluginPack: { tarball: string; files: string[] };
  let pod: ChildProcess | undefined;

  beforeAll(
    () => {
      if (!built) throw new Error('dist/ is missing: run npm run build first');
      yoiPack = pack(ROOT, temp);
      copyDir(path.join(EXAMPLE, 'project'), project);
      copyDir(EXAMPLE, plugin);
      fs.rmSync(path.join(plugin, 'project'), { recursive: true });
      // The plugin's build and tests need yoi, tsc and node's types: installed in the project, found from the plugin dir below it.
      const dev = ['typescript', '@types/node'].map((name) => `${name}@${pkg.devDependencies[name]}`);
      ok('npm', [...NPM_INSTALL, yoiPack.tarball, ...dev], project, {}, INSTALL_MS);
      ok(process.execPath, [path.join(project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], plugin);
      pluginPack = pack(plugin, temp);
      ok('npm', [...NPM_INSTALL, pluginPack.tarball], project, {}, INSTALL_MS);
    },
    2 * INSTALL_MS + 3 * 60_000,
  );

  afterAll(() => {
    pod?.kill('SIGKILL');
    fs.rmSync(temp, { recursive: true, force: true });
  });

  it('packs yoi with its build, bin and manifest, and nothing of the sources or tests', () => {
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(yoiPack.files).toEqual(
      expect.arrayContaining([
        'package.json',
        'bin/run.js',
        'oclif.manifest.json',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/testing/index.js',
        'dist/plugins/index.js',
      ]),
    );
    expect(
      yoiPack.files.filter(
        (f) => !/^(bin|dist)\//.test(f) && !['package.json', 'oclif.manifest.json', 'README.md', 'LICENSE'].includes(f),
      ),
    ).toEqual([]);
    expect(
      yoiPack.files.filter(
        (f) => /^dist\/(test|bench|examples)\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts')),
      ),
    ).toEqual([]);
  });

  it('installs the plugin as a package whose peer dependency the installed yoi satisfies', () => {
    expect(pluginPack.files.sort()).toEqual(
      expect.arrayContaining(['dist/index.d.ts', 'dist/index.js', 'package.json']),
    );
    expect(pluginPack.files.filter((f) => f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    const installed = JSON.parse(
      fs.readFileSync(path.join(project, 'node_modules/yoi-plugin-tickets/package.json'), 'utf8'),
    ) as { peerDependencies: Record<string, string> };
    expect(installed.peerDependencies).toEqual({ yoi: `^${pkg.version}` });
    const tree = ok('npm', ['ls', '--all', '--json', 'yoi'], project);
    expect(tree.stderr).not.toMatch(/invalid|missing|ERR/i);
  });

  it(
    'passes its own node:test suite (the resolver contract and a real pod from yoi/testing)',
    () => {
      const r = run(
        process.execPath,
        ['--test', '--test-reporter=spec', 'test/tickets.test.js'],
        plugin,
        {},
        5 * 60_000,
      );
      expect(r.stdout).toContain('resolver contract: acme:tickets (ticket_ref)');
      expect(r.stdout).toContain('never returns content from outside the scope');
      const count = (what: string) => Number(new RegExp(`^ℹ ${what} (\\d+)$`, 'm').exec(r.stdout)?.[1]);
      expect(count('tests')).toBeGreaterThanOrEqual(15);
      expect({ pass: count('pass'), fail: count('fail') }).toEqual({ pass: count('tests'), fail: 0 });
      expect(r.status).toBe(0);
    },
    6 * 60_000,
  );

  it(
    "type-checks the project's yoi.config.ts, and rejects a typo in the plugin's section",
    () => {
      const tsc = path.join(project, 'node_modules/typescript/bin/tsc');
      expect(run(process.execPath, [tsc, '-p', 'tsconfig.json'], project)).toMatchObject({ status: 0, stdout: '' });
      const typo = fs
        .readFileSync(path.join(project, 'yoi.config.ts'), 'utf8')
        .replace("dir: 'tickets'", "dirr: 'tickets'");
      fs.writeFileSync(path.join(project, 'typo.config.ts'), typo);
      fs.writeFileSync(
        path.join(project, 'tsconfig.typo.json'),
        JSON.stringify({ extends: './tsconfig.json', include: ['typo.config.ts'] }),
      );
      const r = run(process.execPath, [tsc, '-p', 'tsconfig.typo.json'], project);
      expect(r.status).not.toBe(0);
      expect(r.stdout).toMatch(
        /typo\.config\.ts\(\d+,\d+\): error TS2561: .*'dirr' does not exist .*Did you mean to write 'dir'\?/,
      );
    },
    3 * 60_000,
  );

  it(
    'starts a pod with the installed yoi that resolves the plugin kind sent with yoi send --segment',
    async () => {
      const child = spawn(path.join(bin, 'yoi'), ['pod', 'start', '--name', 'tickets'], {
        cwd: project,
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      pod = child;
      let out = '';
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d) => {
          out += d;
          if (/^listening /m.test(out)) resolve();
        });
        child.on('exit', (code) => reject(new Error(`the pod exited (${code}) before listening: ${err}`)));
      });

      const ticket = '{"kind":"ticket_ref","id":"T-12"}';
      const sent = run(
        path.join(bin, 'yoi'),
        ['send', '--pod', 'tickets', 'what is this about?', '--segment', ticket],
        project,
        env,
      );
      expect(sent.stderr).toBe('');
      expect(sent.status).toBe(0);
      expect(sent.stdout).toContain("[Ticket: T-12]\n# T-12: the login page forgets the user's name");

      // An id of the wrong shape: the plugin's reason as an alert, the run still answered.
      const wrong = run(
        path.join(bin, 'yoi'),
        ['send', '--pod', 'tickets', 'and this?', '--segment', '{"kind":"ticket_ref","id":"X-1"}'],
        project,
        env,
      );
      expect(wrong.status).toBe(0);
      expect(`${wrong.stdout}${wrong.stderr}`).toContain('not a ticket id (they look like T-12)');

      const plugins = run(path.join(bin, 'yoi'), ['plugins'], project, env);
      expect(plugins.stdout).toMatch(/acme:tickets/);
      expect(plugins.stdout).toMatch(/ticket_ref.*!/);

      const stopped = run(path.join(bin, 'yoi'), ['pod', 'stop', '--pod', 'tickets'], project, env);
      expect(stopped.status).toBe(0);
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.on('exit', resolve)));
    },
    3 * 60_000,
  );
});
