import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileTools, sandbox } from './toolHarness.js';

let box: ReturnType<typeof sandbox>;
afterEach(() => box?.remove());

/** Sets mtimes a second apart so "newest first" is observable. */
function age(files: string[]) {
  const now = Date.now() / 1000;
  files.forEach((f, i) => fs.utimesSync(f, now - 100 + i, now - 100 + i));
}

describe('Glob', () => {
  it('lists matching files newest first, hidden ones included, .git and directories left out', async () => {
    box = sandbox({
      'src/a.ts': '',
      'src/deep/b.ts': '',
      'src/c.js': '',
      '.hidden/d.ts': '',
      '.git/e.ts': '',
      'ünï cødé/f.ts': '',
    });
    fs.mkdirSync(box.at('src/dir.ts'));
    age(['src/deep/b.ts', 'ünï cødé/f.ts', '.hidden/d.ts', 'src/a.ts'].map(box.at));
    const { call } = fileTools(box.project);
    expect(await call('Glob', { pattern: '**/*.ts' })).toEqual({
      summary: 'Found 4 files matching **/*.ts',
      content: ['src/a.ts', '.hidden/d.ts', 'ünï cødé/f.ts', 'src/deep/b.ts'].map(box.at).join('\n'),
    });
    expect(await call('Glob', { pattern: '*.ts', path: 'src' })).toEqual({
      summary: 'Found 1 file matching *.ts',
      content: box.at('src/a.ts'),
    });
    expect(await call('Glob', { pattern: '**/*.py' })).toEqual({ summary: 'No files found matching **/*.py' });
  });

  it('only lists what the pod may read; symlinks leading out are not followed or listed', async () => {
    box = sandbox({ 'ok.txt': '', 'private/key.txt': '' });
    fs.mkdirSync(path.join(box.root, 'outside'));
    fs.writeFileSync(path.join(box.root, 'outside', 'o.txt'), '');
    fs.symlinkSync(path.join(box.root, 'outside'), box.at('dirlink'));
    fs.symlinkSync(path.join(box.root, 'outside', 'o.txt'), box.at('filelink.txt'));
    const { call } = fileTools(box.project, {
      allow: [{ target: box.project, permission: 'write' }],
      deny: [{ target: box.at('private'), permission: 'read' }],
    });
    const out = await call('Glob', { pattern: '**/*.txt' });
    expect(out.content!.split('\n')).toEqual([box.at('ok.txt')]);
    expect((await call('Glob', { pattern: '*', path: path.join(box.root, 'outside') })).summary).toMatch(
      /^cannot read \S+\/outside: outside the pod's scope$/,
    );
    expect((await call('Glob', { pattern: '../outside/*' })).summary).toMatch(
      /^the pattern \.\.\/outside\/\* must stay below the search directory/,
    );
    expect((await call('Glob', { pattern: '*', path: 'ok.txt' })).summary).toMatch(/ok\.txt is not a directory$/);
  });

  it('caps the list at 1000, the newest, and says how many there were', async () => {
    box = sandbox();
    for (let i = 0; i < 1005; i++) box.write(`many/f${String(i).padStart(4, '0')}.txt`, '');
    age([box.at('many/f0000.txt')]); // the oldest
    const { call } = fileTools(box.project);
    const out = await call('Glob', { pattern: 'many/*.txt' });
    expect(out.summary).toBe('Found 1005 files matching many/*.txt (showing the 1000 newest)');
    expect(out.content!.split('\n')).toHaveLength(1000);
    expect(out.content).not.toContain('f0000.txt');
  });
});

describe('Grep', () => {
  const files = {
    'src/a.ts': 'import x from "y";\nconst Foo = 1;\nexport default Foo;\n',
    'src/b.py': 'foo = 2\nprint(foo)\n',
    'notes/ünï.md': 'line one\nthe FOO line\nline three\nline four\nline five\nfoo again\n',
    '.hidden/h.ts': 'foo hidden\n',
  };

  it('files_with_matches (default): sorted paths, hidden files skipped', async () => {
    box = sandbox(files);
    const { call } = fileTools(box.project);
    expect(await call('Grep', { pattern: 'foo' })).toEqual({
      summary: 'Found matches in 2 files',
      content: [box.at('notes/ünï.md'), box.at('src/b.py')].join('\n'),
    });
    expect(await call('Grep', { pattern: 'foo', '-i': true, glob: '*.ts' })).toEqual({
      summary: 'Found matches in 1 file',
      content: box.at('src/a.ts'),
    });
    expect(await call('Grep', { pattern: 'foo', type: 'py' })).toEqual({
      summary: 'Found matches in 1 file',
      content: box.at('src/b.py'),
    });
    expect(await call('Grep', { pattern: 'zzz' })).toEqual({ summary: 'No files matched' });
  });

  it('content: path:N:text for matches, path-N-text for context, -- between groups', async () => {
    box = sandbox(files);
    const { call } = fileTools(box.project);
    const md = box.at('notes/ünï.md');
    expect(await call('Grep', { pattern: 'foo', path: 'notes', output_mode: 'content', '-i': true, '-C': 1 })).toEqual({
      summary: 'Found matches in 1 file, 2 matching lines',
      content: [
        `${md}-1-line one`,
        `${md}:2:the FOO line`,
        `${md}-3-line three`,
        '--',
        `${md}-5-line five`,
        `${md}:6:foo again`,
      ].join('\n'),
    });
    expect(await call('Grep', { pattern: 'foo', path: 'src/b.py', output_mode: 'content', '-n': false })).toEqual({
      summary: 'Found matches in 1 file, 2 matching lines',
      content: [`${box.at('src/b.py')}:foo = 2`, `${box.at('src/b.py')}:print(foo)`].join('\n'),
    });
    expect(await call('Grep', { pattern: 'zzz', output_mode: 'content' })).toEqual({ summary: 'No matches' });
  });

  it('count mode, and head_limit/offset paging', async () => {
    box = sandbox({
      ...files,
      ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`many/m${i}.txt`, 'hit\nhit\n'])),
    });
    const { call } = fileTools(box.project);
    expect(await call('Grep', { pattern: 'foo', output_mode: 'count', '-i': true })).toEqual({
      summary: '6 matching lines in 3 files',
      content: [`${box.at('notes/ünï.md')}:2`, `${box.at('src/a.ts')}:2`, `${box.at('src/b.py')}:2`].join('\n'),
    });
    const page = await call('Grep', { pattern: 'hit', path: 'many', head_limit: 2, offset: 1 });
    expect(page).toEqual({
      summary: 'Found matches in 5 files (showing files 2–3 of 5)',
      content: [box.at('many/m1.txt'), box.at('many/m2.txt')].join('\n'),
    });
    const lines = await call('Grep', { pattern: 'hit', path: 'many', output_mode: 'content', head_limit: 3 });
    expect(lines.summary).toBe('Found matches in 5 files, 10 matching lines (showing lines 1–3 of 10)');
    expect(lines.content!.split('\n')).toHaveLength(3);
  });

  it('filters by scope, refuses an unreadable base, reports a bad regex in one line', async () => {
    box = sandbox({ ...files, 'private/secret.ts': 'foo secret\n' });
    fs.mkdirSync(path.join(box.root, 'outside'));
    fs.writeFileSync(path.join(box.root, 'outside', 'o.ts'), 'foo outside\n');
    const { call } = fileTools(box.project, {
      allow: [{ target: box.project, permission: 'read' }],
      deny: [{ target: box.at('private'), permission: 'read' }],
    });
    const out = await call('Grep', { pattern: 'foo', output_mode: 'content' });
    expect(out.content).not.toContain('secret');
    expect((await call('Grep', { pattern: 'foo', path: path.join(box.root, 'outside') })).summary).toMatch(
      /^cannot read \S+\/outside: outside the pod's scope$/,
    );
    expect(await call('Grep', { pattern: 'foo(' })).toEqual({
      summary: expect.stringMatching(/^ripgrep: invalid regex: .*unclosed group/),
      is_error: true,
    });
    expect(await call('Grep', { pattern: 'foo', type: 'nosuchtype' })).toEqual({
      summary: expect.stringMatching(/^ripgrep: unrecognized file type: nosuchtype/),
      is_error: true,
    });
  });

  it('cuts very long lines, and a pattern starting with a dash is a pattern', async () => {
    box = sandbox({ 'min.js': `${'x'.repeat(2000)}needle${'y'.repeat(10)}\n`, 'dash.txt': '-v flag\n' });
    const { call } = fileTools(box.project);
    const out = await call('Grep', { pattern: 'needle', output_mode: 'content' });
    expect(out.content!.length).toBeLessThan(700);
    expect(out.content).toMatch(/… \[1516 more characters\]$/);
    expect((await call('Grep', { pattern: '-v', output_mode: 'content' })).content).toBe(
      `${box.at('dash.txt')}:1:-v flag`,
    );
  });
});
