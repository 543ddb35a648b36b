import { afterEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { rgPath } from '@vscode/ripgrep';
import { fileTools, sandbox } from '../toolHarness.js';

let box: ReturnType<typeof sandbox>;
afterEach(() => box?.remove());

/** A project whose ignore files use nesting, negation, anchoring, precedence and a parent file. */
const PROJECT = {
  '.gitignore': '*.log\n/build/\ndist/\n# a comment\n\n!keep.log\nsub/anchored.txt\n',
  '.ignore': '!dist/\n',
  '.rgignore': 'secret*.txt\n',
  'a.txt': 'x\n',
  'b.log': 'x\n',
  'keep.log': 'x\n',
  'build/c.txt': 'x\n',
  'dist/d.txt': 'x\n',
  'sub/.gitignore': '*.tmp\n!b.log\n/only-here.txt\n',
  'sub/anchored.txt': 'x\n',
  'sub/b.log': 'x\n',
  'sub/e.tmp': 'x\n',
  'sub/only-here.txt': 'x\n',
  'sub/deeper/only-here.txt': 'x\n',
  'sub/deeper/build/f.txt': 'x\n',
  'sub/secret1.txt': 'x\n',
  'sub/[odd] {dir}/g.tmp': 'x\n',
  'sub/[odd] {dir}/h.txt': 'x\n',
};

describe('Grep and ignore files', () => {
  it('lists what ripgrep itself would, with the ignore files read by the pod', async () => {
    box = sandbox(PROJECT);
    fs.mkdirSync(box.at('.git'));
    const { call } = fileTools(box.project);
    const cwd = process.cwd();
    process.chdir(box.project); // ripgrep roots a --glob with a slash at its working directory, the pod's
    try {
      for (const [path, glob] of [[], ['sub'], [undefined, '*.log'], [undefined, 'sub/*.txt'], ['sub', '!*.txt']]) {
        const args = ['--no-config', '--files', '--sort=path', ...(glob ? ['--glob', glob] : []), box.at(path ?? '')];
        const expected = execFileSync(rgPath, args, { encoding: 'utf8' }).trim();
        expect(expected).not.toBe('');
        expect((await call('Grep', { pattern: 'x', path, glob })).content).toBe(expected);
      }
    } finally {
      process.chdir(cwd);
    }
  });

  it('applies .gitignore only in a git repository, as ripgrep does', async () => {
    box = sandbox({ '.gitignore': '*.log\n', 'a.log': 'x\n', 'b.txt': 'x\n' });
    const { call } = fileTools(box.project);
    expect((await call('Grep', { pattern: 'x' })).content).toBe([box.at('a.log'), box.at('b.txt')].join('\n'));
    fs.mkdirSync(box.at('.git'));
    expect((await call('Grep', { pattern: 'x' })).content).toBe(box.at('b.txt'));
  });

  it('skips, saying so, an ignore file over 1 MiB', async () => {
    box = sandbox({ '.ignore': `a.txt\n${'#'.repeat(1024 * 1024)}\n`, 'a.txt': 'x\n' });
    const { call } = fileTools(box.project);
    expect(await call('Grep', { pattern: 'x' })).toEqual({
      summary: 'Found matches in 1 file (ignore files not applied: .ignore (larger than 1 MiB))',
      content: box.at('a.txt'),
    });
  });
});
