import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempProject } from '../support/tempProject.js';
import { runCli } from './runCli.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

describe('installing yoi', () => {
  it('npm pack of a checkout that was never built ships dist/ and the manifest (prepack builds)', () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-pack-'));
    cleanups.push(() => fs.rmSync(copy, { recursive: true, force: true }));
    // The checkout's files as git sees them (no dist/, no manifest), and its dependencies.
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: repo,
      encoding: 'utf8',
    })
      .split('\0')
      .filter(Boolean);
    for (const file of files) {
      if (!fs.existsSync(path.join(repo, file))) continue; // deleted in the work tree
      fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      fs.copyFileSync(path.join(repo, file), path.join(copy, file));
    }
    fs.symlinkSync(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'));
    expect(fs.existsSync(path.join(copy, 'dist'))).toBe(false);
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-tgz-'));
    cleanups.push(() => fs.rmSync(out, { recursive: true, force: true }));
    const pack = spawnSync('npm', ['pack', '--json', '--pack-destination', out], {
      cwd: copy,
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(pack.status).toBe(0);
    const [{ filename }] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string }[];
    const entries = execFileSync('tar', ['tzf', path.join(out, filename)], { encoding: 'utf8' }).split('\n');
    for (const file of [
      'bin/run.js',
      'dist/index.js',
      'dist/cli/commands/send.js',
      'dist/cli/help.json',
      'oclif.manifest.json',
      'package.json',
      'README.md',
    ]) {
      expect(entries).toContain(`package/${file}`);
    }
  }, 320_000);
});

describe('yoi init in a git repository', () => {
  it('adds .yoi/ to .gitignore once, keeping what was there; outside a repository it leaves .gitignore alone', () => {
    const p = tempProject({ 'package.json': '{"name":"demo","private":true}', '.gitignore': 'node_modules' });
    cleanups.push(() => p.remove());
    fs.mkdirSync(p.path('.git'));
    const r = runCli(['init'], { cwd: p.root });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toBe('created yoi.config.ts; check it with: yoi config\nadded .yoi/ to .gitignore\n');
    expect(fs.readFileSync(p.path('.gitignore'), 'utf8')).toBe(
      'node_modules\n# yoi: session logs and per-project state\n.yoi/\n',
    );
    fs.rmSync(p.path('yoi.config.ts'));
    expect(runCli(['init'], { cwd: p.root }).stdout).toBe('created yoi.config.ts; check it with: yoi config\n');
    expect(fs.readFileSync(p.path('.gitignore'), 'utf8')).toBe(
      'node_modules\n# yoi: session logs and per-project state\n.yoi/\n',
    );

    const plain = tempProject({ 'package.json': '{"name":"plain","private":true}' });
    cleanups.push(() => plain.remove());
    expect(runCli(['init'], { cwd: plain.root }).code).toBe(0);
    expect(fs.existsSync(plain.path('.gitignore'))).toBe(false);
  });

  it('a sub-directory of a repository (a git worktree keeps .git as a file) gets its own .gitignore entry', () => {
    const p = tempProject({ '.git': 'gitdir: /elsewhere\n', 'app/package.json': '{"name":"app","private":true}' });
    cleanups.push(() => p.remove());
    expect(runCli(['init'], { cwd: p.path('app') }).stdout).toContain('added .yoi/ to .gitignore');
    expect(fs.readFileSync(p.path('app', '.gitignore'), 'utf8')).toBe(
      '# yoi: session logs and per-project state\n.yoi/\n',
    );
  });
});

describe('the demo', () => {
  it('prints no ANSI escapes when its output is not a terminal', () => {
    const r = spawnSync(process.execPath, [path.join(repo, 'scripts', 'demo.js')], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NO_COLOR: '' },
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('$ yoi history --pod demo');
    expect(r.stdout + r.stderr).not.toContain('\x1b');
  }, 130_000);
});
