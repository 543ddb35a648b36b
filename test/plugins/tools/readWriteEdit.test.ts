import { afterEach, describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileTools, sandbox } from './toolHarness.js';

let box: ReturnType<typeof sandbox>;
afterEach(() => box?.remove());

describe('Read', () => {
  it('numbers lines like cat -n, 1-based, and slices with offset/limit', async () => {
    box = sandbox({ 'a.txt': 'one\ntwo\r\nthree\n\nfive' });
    const { call, files } = fileTools(box.project);
    expect(await call('Read', { file_path: 'a.txt' })).toEqual({
      summary: `Read 5 lines from ${box.at('a.txt')}`,
      content: '     1\tone\n     2\ttwo\n     3\tthree\n     4\t\n     5\tfive',
    });
    expect(await call('Read', { file_path: box.at('a.txt'), offset: 1, limit: 2 })).toEqual({
      summary: `Read 2 lines [2..3] of 5 from ${box.at('a.txt')}`,
      content: '     2\ttwo\n     3\tthree',
    });
    expect((await call('Read', { file_path: 'a.txt', offset: 9 })).summary).toBe(
      `Read 0 lines of 5 from ${box.at('a.txt')} (offset 9 is past the end)`,
    );
    expect(files.recent()).toEqual([box.at('a.txt')]);
  });

  it('defaults to 2000 lines, numbers right-aligned in 6 columns', async () => {
    box = sandbox({ 'big.txt': Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join('\n') });
    const { call } = fileTools(box.project);
    const out = await call('Read', { file_path: 'big.txt' });
    expect(out.summary).toBe(`Read 2000 lines [1..2000] of 2500 from ${box.at('big.txt')}`);
    expect(out.content!.split('\n').at(-1)).toBe('  2000\tl2000');
    expect((await call('Read', { file_path: 'big.txt', offset: 2499 })).content).toBe('  2500\tl2500');
  });

  it('reads unicode paths and content; an empty file is 0 lines', async () => {
    box = sandbox({ 'données/été ☀.md': 'héllo wörld 🌍\n日本語\n', 'empty.txt': '' });
    const { call } = fileTools(box.project);
    expect(await call('Read', { file_path: 'données/été ☀.md' })).toEqual({
      summary: `Read 2 lines from ${box.at('données/été ☀.md')}`,
      content: '     1\théllo wörld 🌍\n     2\t日本語',
    });
    expect(await call('Read', { file_path: 'empty.txt' })).toEqual({
      summary: `Read 0 lines from ${box.at('empty.txt')}`,
      content: '',
    });
  });

  it('refuses what it must not or cannot read, with one line naming the path', async () => {
    box = sandbox({ 'bin.dat': Buffer.from([1, 2, 0, 3]) });
    fs.writeFileSync(path.join(box.root, 'secret.txt'), 'top secret');
    fs.symlinkSync(path.join(box.root, 'secret.txt'), box.at('link.txt'));
    fs.mkdirSync(box.at('dir'));
    const { call } = fileTools(box.project);
    const cases: [string, RegExp][] = [
      [path.join(box.root, 'secret.txt'), /^cannot read \S+\/secret\.txt: outside the pod's scope$/],
      ['../secret.txt', /^cannot read \S+\/secret\.txt: outside the pod's scope$/],
      ['link.txt', /^cannot read \S+\/project\/link\.txt: outside the pod's scope$/],
      ['missing.txt', /^\S+\/missing\.txt does not exist$/],
      ['dir', /^\S+\/dir is a directory \(use Glob to list it\)$/],
      ['bin.dat', /^\S+\/bin\.dat is a binary file; Read shows text only$/],
    ];
    for (const [file_path, message] of cases) {
      const out = await call('Read', { file_path });
      expect(out).toEqual({ summary: expect.stringMatching(message), is_error: true });
      expect(JSON.stringify(out)).not.toContain('top secret');
    }
  });
});

describe('Write', () => {
  it('creates files (and directories), but overwrites only what was read and is unchanged', async () => {
    box = sandbox({ 'old.txt': 'old\n' });
    const { call, files } = fileTools(box.project);
    expect(await call('Write', { file_path: 'new/dir/ünï.txt', content: 'héllo\n' })).toEqual({
      summary: `Created ${box.at('new/dir/ünï.txt')} (7 bytes)`,
    });
    expect(fs.readFileSync(box.at('new/dir/ünï.txt'), 'utf8')).toBe('héllo\n');

    expect(await call('Write', { file_path: 'old.txt', content: 'new\n' })).toEqual({
      summary: `${box.at('old.txt')} has not been read in this session; Read it first`,
      is_error: true,
    });
    await call('Read', { file_path: 'old.txt' });
    fs.writeFileSync(box.at('old.txt'), 'changed behind our back\n');
    expect(await call('Write', { file_path: 'old.txt', content: 'new\n' })).toEqual({
      summary: `${box.at('old.txt')} was modified externally since it was last read; Read it again`,
      is_error: true,
    });
    expect(fs.readFileSync(box.at('old.txt'), 'utf8')).toBe('changed behind our back\n');
    await call('Read', { file_path: 'old.txt' });
    expect(await call('Write', { file_path: 'old.txt', content: 'new\n' })).toEqual({
      summary: `Overwrote ${box.at('old.txt')} (4 bytes)`,
    });
    // What the pod wrote counts as read: a second write needs no new Read.
    expect((await call('Write', { file_path: 'old.txt', content: 'newer\n' })).is_error).toBeUndefined();
    expect(files.recent(2)).toEqual([box.at('old.txt'), box.at('new/dir/ünï.txt')]);
    expect(fs.readdirSync(box.project).filter((f) => f.includes('yoi-tmp'))).toEqual([]);
  });

  it('keeps the permission bits of the file it replaces, and writes through a symlink to its target', async () => {
    box = sandbox({ 'run.sh': '#!/bin/sh\n', 'target.txt': 'target\n' });
    fs.chmodSync(box.at('run.sh'), 0o751);
    fs.symlinkSync('target.txt', box.at('alias.txt'));
    const { call } = fileTools(box.project);
    await call('Read', { file_path: 'run.sh' });
    await call('Write', { file_path: 'run.sh', content: '#!/bin/sh\necho hi\n' });
    expect(fs.statSync(box.at('run.sh')).mode & 0o777).toBe(0o751);
    await call('Read', { file_path: 'alias.txt' });
    expect(await call('Write', { file_path: 'alias.txt', content: 'via link\n' })).toEqual({
      summary: `Overwrote ${box.at('target.txt')} (9 bytes)`,
    });
    expect(fs.lstatSync(box.at('alias.txt')).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(box.at('target.txt'), 'utf8')).toBe('via link\n');
  });

  it('refuses paths outside the write scope, including through a symlinked directory', async () => {
    box = sandbox({ 'docs/readme.md': 'read only\n' });
    fs.mkdirSync(path.join(box.root, 'outside'));
    fs.symlinkSync(path.join(box.root, 'outside'), box.at('escape'));
    const { call } = fileTools(box.project, {
      allow: [{ target: box.project, permission: 'write' }],
      deny: [{ target: box.at('docs'), permission: 'write' }],
    });
    expect((await call('Write', { file_path: 'escape/x.txt', content: 'x' })).summary).toMatch(
      /^cannot write \S+\/project\/escape\/x\.txt: outside the pod's scope$/,
    );
    expect(fs.existsSync(path.join(box.root, 'outside', 'x.txt'))).toBe(false);
    await call('Read', { file_path: 'docs/readme.md' });
    expect((await call('Write', { file_path: 'docs/readme.md', content: 'x' })).summary).toMatch(
      /^cannot write \S+\/docs\/readme\.md: read-only: outside the pod's write scope$/,
    );
    expect(await call('Write', { file_path: '/etc/yoi-test', content: 'x' })).toMatchObject({ is_error: true });
  });
});

describe('Edit', () => {
  it('replaces a unique string and shows the edited lines with context, numbered like Read', async () => {
    box = sandbox({ 'code.ts': ['a', 'b', 'c', 'd', 'target', 'e', 'f', 'g', 'h'].join('\n') + '\n' });
    const { call } = fileTools(box.project);
    await call('Read', { file_path: 'code.ts' });
    expect(await call('Edit', { file_path: 'code.ts', old_string: 'target', new_string: 'new 1\nnew 2' })).toEqual({
      summary: `Edited ${box.at('code.ts')} (1 replacement)`,
      content: [
        '     2\tb',
        '     3\tc',
        '     4\td',
        '     5\tnew 1',
        '     6\tnew 2',
        '     7\te',
        '     8\tf',
        '     9\tg',
      ].join('\n'),
    });
    expect(fs.readFileSync(box.at('code.ts'), 'utf8')).toBe('a\nb\nc\nd\nnew 1\nnew 2\ne\nf\ng\nh\n');
  });

  it('needs a unique match unless replace_all; replaces literally ($ patterns included)', async () => {
    box = sandbox({ 'x.txt': 'foo bar foo baz foo\n' });
    const { call } = fileTools(box.project);
    await call('Read', { file_path: 'x.txt' });
    expect(await call('Edit', { file_path: 'x.txt', old_string: 'foo', new_string: '$&$1' })).toEqual({
      summary: `old_string occurs 3 times in ${box.at('x.txt')}; pass replace_all=true or include more context to make it unique`,
      is_error: true,
    });
    expect(
      (await call('Edit', { file_path: 'x.txt', old_string: 'foo', new_string: '$&$1', replace_all: true })).summary,
    ).toBe(`Edited ${box.at('x.txt')} (3 replacements)`);
    expect(fs.readFileSync(box.at('x.txt'), 'utf8')).toBe('$&$1 bar $&$1 baz $&$1\n');
    expect(await call('Edit', { file_path: 'x.txt', old_string: 'nope', new_string: 'x' })).toEqual({
      summary: `old_string was not found in ${box.at('x.txt')}`,
      is_error: true,
    });
  });

  it('refuses an edit or a write whose result would pass the 32 MiB limit, leaving the file as it was', async () => {
    // The attack: one replace_all turned a 4 MiB file into a 400 MiB one.
    const big = 'a'.repeat(4 * 1024 * 1024);
    box = sandbox({ 'big.txt': big });
    const { call } = fileTools(box.project);
    await call('Read', { file_path: 'big.txt', limit: 1 });
    const limit = 32 * 1024 * 1024;
    expect(
      await call('Edit', { file_path: 'big.txt', old_string: 'a', new_string: 'a'.repeat(100), replace_all: true }),
    ).toEqual({
      summary: `the new ${box.at('big.txt')} would be ${big.length * 100} bytes (limit ${limit}); nothing was written`,
      is_error: true,
    });
    expect(fs.readFileSync(box.at('big.txt'), 'utf8')).toBe(big);
    expect(await call('Write', { file_path: 'huge.txt', content: 'é'.repeat(limit / 2 + 1) })).toEqual({
      summary: `the new ${box.at('huge.txt')} would be ${limit + 2} bytes (limit ${limit}); nothing was written`,
      is_error: true,
    });
    expect(fs.existsSync(box.at('huge.txt'))).toBe(false);
    // At the limit it still works.
    expect(
      (await call('Edit', { file_path: 'big.txt', old_string: 'a', new_string: 'aaaaaaaa', replace_all: true }))
        .summary,
    ).toBe(`Edited ${box.at('big.txt')} (${big.length} replacements)`);
    expect(fs.statSync(box.at('big.txt')).size).toBe(limit);
  });

  it('validates its input: old_string non-empty and different from new_string', async () => {
    box = sandbox({ 'x.txt': 'x' });
    const { call } = fileTools(box.project);
    expect((await call('Edit', { file_path: 'x.txt', old_string: '', new_string: 'y' })).summary).toMatch(
      /^Invalid argument: old_string: /,
    );
    expect((await call('Edit', { file_path: 'x.txt', old_string: 'x', new_string: 'x' })).summary).toBe(
      'Invalid argument: new_string: must differ from old_string',
    );
  });

  it('refuses a file not read, changed since, missing, or not UTF-8', async () => {
    box = sandbox({ 'x.txt': 'hello\n', 'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    const { call } = fileTools(box.project);
    expect((await call('Edit', { file_path: 'x.txt', old_string: 'hello', new_string: 'bye' })).summary).toMatch(
      /has not been read in this session; Read it first$/,
    );
    await call('Read', { file_path: 'x.txt' });
    fs.appendFileSync(box.at('x.txt'), 'more\n');
    expect((await call('Edit', { file_path: 'x.txt', old_string: 'hello', new_string: 'bye' })).summary).toMatch(
      /was modified externally since it was last read; Read it again$/,
    );
    expect((await call('Edit', { file_path: 'nope.txt', old_string: 'a', new_string: 'b' })).summary).toMatch(
      /nope\.txt does not exist \(use Write to create it\)$/,
    );
    await call('Read', { file_path: 'latin1.txt' });
    expect((await call('Edit', { file_path: 'latin1.txt', old_string: 'caf', new_string: 'CAF' })).summary).toMatch(
      /latin1\.txt is not UTF-8 text; Edit changes text files only$/,
    );
  });

  it('parallel edits of one file apply one after the other; none is lost', async () => {
    box = sandbox({ 'list.txt': Array.from({ length: 20 }, (_, i) => `item ${i}`).join('\n') + '\n' });
    const { call } = fileTools(box.project);
    await call('Read', { file_path: 'list.txt' });
    const outs = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call('Edit', { file_path: 'list.txt', old_string: `item ${i}\n`, new_string: `done ${i}\n` }),
      ),
    );
    expect(outs.filter((o) => o.is_error)).toEqual([]);
    expect(fs.readFileSync(box.at('list.txt'), 'utf8')).toBe(
      Array.from({ length: 20 }, (_, i) => `done ${i}`).join('\n') + '\n',
    );
  });

  it('an edit racing with another writer is refused rather than clobbering it', async () => {
    box = sandbox({ 'shared.txt': 'v1\n' });
    const a = fileTools(box.project);
    const b = fileTools(box.project); // another pod on the same file
    await a.call('Read', { file_path: 'shared.txt' });
    await b.call('Read', { file_path: 'shared.txt' });
    expect(
      (await b.call('Edit', { file_path: 'shared.txt', old_string: 'v1', new_string: 'v2 by b' })).is_error,
    ).toBeUndefined();
    expect(
      (await a.call('Edit', { file_path: 'shared.txt', old_string: 'v1', new_string: 'v2 by a' })).summary,
    ).toMatch(/modified externally/);
    expect(fs.readFileSync(box.at('shared.txt'), 'utf8')).toBe('v2 by b\n');
  });
});
