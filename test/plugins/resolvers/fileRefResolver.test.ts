import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Scope } from '../../../core/scope/Scope.js';
import { fileRefResolver } from '../../../plugins/resolvers/fileRef/fileRefResolver.js';
import {
  completeContext,
  completeWith,
  hostWith,
  hostWithConfig,
  resolveContext,
  resolveWith,
  tempDir,
  within,
  writeFiles,
} from '../../../testing/resolverHarness.js';

let root: string;
let project: string;
let remove: () => void;
let server: net.Server;
const SECRET = 'TOP-SECRET-CONTENT';

beforeAll(async () => {
  ({ dir: root, remove } = tempDir());
  project = path.join(root, 'project');
  writeFiles(root, {
    'outside/secret.txt': SECRET,
    'project/src/a.ts': 'export const a = 1;\n',
    'project/src/b.ts': 'b',
    'project/src/nested/c.ts': 'c',
    'project/dir with space/ファイル é.md': 'unicode ok',
    'project/big.txt': 'x'.repeat(300 * 1024),
    'project/private/key.pem': SECRET,
    'project/node_modules/pkg/index.js': 'nm',
    'project/.git/HEAD': 'ref',
    'project/stuff/keep.txt': 'k',
  });
  fs.symlinkSync('/etc', path.join(project, 'etc-link'));
  fs.symlinkSync(path.join(root, 'outside'), path.join(project, 'stuff/outside-link'));
  fs.symlinkSync(path.join(project, 'src/a.ts'), path.join(project, 'stuff/a-link'));
  execFileSync('mkfifo', [path.join(project, 'pipe')]);
  fs.symlinkSync(path.join(project, 'pipe'), path.join(project, 'pipe-link'));
  fs.closeSync(fs.openSync(path.join(project, 'sparse.bin'), 'w'));
  fs.truncateSync(path.join(project, 'sparse.bin'), 2 * 1024 ** 3);
  server = net.createServer();
  await new Promise<void>((resolve) => server.listen(path.join(project, 'sock'), resolve));
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  remove();
});

const host = hostWith(fileRefResolver());
const scopeOfProject = () =>
  new Scope(
    {
      allow: [{ target: project, permission: 'write' }],
      deny: [{ target: path.join(project, 'private'), permission: 'read' }],
    },
    project,
  );
const resolve = (p: unknown, opts: { cwd?: string; scope?: Scope; signal?: AbortSignal; config?: unknown } = {}) =>
  within(
    5000,
    resolveWith(
      host,
      'file_ref',
      { kind: 'file_ref', path: p },
      resolveContext({ projectDir: project, scope: scopeOfProject(), ...opts }),
    ),
  );

describe('yoi:file-ref resolves files', () => {
  it('gives the file as a context item labelled with the path as written', async () => {
    expect(await resolve('src/a.ts')).toEqual({
      type: 'context',
      label: 'File: src/a.ts',
      text: 'export const a = 1;\n',
    });
  });

  it('resolves relative to the pod cwd', async () => {
    expect(await resolve('a.ts', { cwd: path.join(project, 'src') })).toMatchObject({
      type: 'context',
      label: 'File: a.ts',
    });
    expect(await resolve('../big.txt', { cwd: path.join(project, 'src') })).toMatchObject({ type: 'context' });
  });

  it('handles unicode and spaces in names', async () => {
    expect(await resolve('dir with space/ファイル é.md')).toEqual({
      type: 'context',
      label: 'File: dir with space/ファイル é.md',
      text: 'unicode ok',
    });
  });

  it('reads through an in-scope symlink to an in-scope file', async () => {
    expect(await resolve('stuff/a-link')).toMatchObject({ type: 'context', text: 'export const a = 1;\n' });
  });

  it('uses the default scope (the project dir) when the pod provides none', async () => {
    const ctx = resolveContext({ projectDir: project });
    expect(await resolveWith(host, 'file_ref', { kind: 'file_ref', path: 'src/b.ts' }, ctx)).toMatchObject({
      type: 'context',
      text: 'b',
    });
    expect(await resolveWith(host, 'file_ref', { kind: 'file_ref', path: '../outside/secret.txt' }, ctx)).toMatchObject(
      { type: 'unresolved' },
    );
  });
});

describe('yoi:file-ref over the size cap', () => {
  it('gives the head, says how much was cut, and warns', async () => {
    const result = await resolve('big.txt');
    expect(result).toMatchObject({
      type: 'context',
      label: 'File: big.txt',
      warning: '@big.txt was truncated to its first 262144 of 307200 bytes (limit 262144)',
    });
    const text = (result as { text: string }).text;
    expect(
      text.startsWith(
        'x'.repeat(262144) +
          '\n\n[truncated: showing the first 262144 of 307200 bytes; 45056 bytes cut (limit 262144)]',
      ),
    ).toBe(true);
  });

  it('cuts at a UTF-8 boundary', async () => {
    const plugin = hostWith(fileRefResolver({ maxBytes: 4 }));
    writeFiles(project, { 'utf8.txt': 'aéé' }); // a (1 byte) é (2) é (2): 4 bytes would split the second é
    const result = await resolveWith(
      plugin,
      'file_ref',
      { kind: 'file_ref', path: 'utf8.txt' },
      resolveContext({ projectDir: project }),
    );
    expect((result as { text: string }).text).toMatch(
      /^aé\n\n\[truncated: showing the first 3 of 5 bytes; 2 bytes cut \(limit 4\)\]$/,
    );
  });

  it('takes the limit from the config, and the plugin option over the config', async () => {
    const config = { limits: { fileRefBytes: 10 } };
    const configured = hostWithConfig(config, fileRefResolver());
    expect(
      await resolveWith(
        configured,
        'file_ref',
        { kind: 'file_ref', path: 'big.txt' },
        resolveContext({ projectDir: project }),
      ),
    ).toMatchObject({ warning: expect.stringContaining('first 10 of 307200 bytes') });
    const plugin = hostWithConfig(config, fileRefResolver({ maxBytes: 20 }));
    const result = await resolveWith(
      plugin,
      'file_ref',
      { kind: 'file_ref', path: 'big.txt' },
      resolveContext({ projectDir: project }),
    );
    expect(result).toMatchObject({ warning: expect.stringContaining('first 20 of 307200 bytes') });
  });

  it('reports a 2 GB sparse file as binary without reading it all', async () => {
    const started = Date.now();
    expect(await resolve('sparse.bin')).toEqual({
      type: 'unresolved',
      ref: 'sparse.bin',
      reason: 'a binary file (NUL byte in its first 8 KiB); not included',
    });
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('yoi:file-ref never reveals what is outside scope', () => {
  const outsideReason = "not readable: outside the pod's scope";

  it.each([
    ['../../etc/passwd'],
    ['/etc/shadow'],
    ['/etc/passwd'],
    ['etc-link/passwd'],
    ['etc-link'],
    ['../outside/secret.txt'],
    ['src/../../outside/secret.txt'],
    ['stuff/outside-link/secret.txt'],
    ['stuff/outside-link'],
    ['private/key.pem'],
    ['private'],
  ])('refuses %s without content', async (p) => {
    const result = await resolve(p);
    expect(result).toEqual({ type: 'unresolved', ref: p, reason: outsideReason });
  });

  it('gives the same answer for existing and missing paths outside scope', async () => {
    expect(await resolve('../outside/secret.txt')).toEqual({
      ...(await resolve('../outside/nothing-here.txt')),
      ref: '../outside/secret.txt',
    });
    expect(((await resolve(path.join(root, 'outside/secret.txt'))) as { reason: string }).reason).toBe(outsideReason);
    expect(((await resolve(path.join(root, 'outside/none'))) as { reason: string }).reason).toBe(outsideReason);
  });

  it('leaves out-of-scope entries out of a directory listing', async () => {
    const result = await resolve('stuff');
    expect(result).toEqual({
      type: 'context',
      label: 'File: stuff',
      text: 'Directory stuff (2 entries; file contents not included):\na-link\nkeep.txt',
    });
    expect(JSON.stringify(await resolve('.'))).not.toMatch(/etc-link|private|outside-link/);
  });
});

describe('yoi:file-ref special files', () => {
  it('does not open a FIFO (and does not hang), directly or through a link', async () => {
    expect(await resolve('pipe')).toEqual({
      type: 'unresolved',
      ref: 'pipe',
      reason: 'a FIFO, not a regular file; not opened',
    });
    expect(await resolve('pipe-link')).toMatchObject({ reason: 'a FIFO, not a regular file; not opened' });
  });

  it('does not open a socket', async () => {
    expect(await resolve('sock')).toMatchObject({
      type: 'unresolved',
      reason: 'a socket, not a regular file; not opened',
    });
  });

  it('does not open a device', async () => {
    const scope = new Scope(
      {
        allow: [
          { target: project, permission: 'write' },
          { target: '/dev', permission: 'read' },
        ],
      },
      project,
    );
    expect(await resolve('/dev/zero', { scope })).toMatchObject({
      type: 'unresolved',
      reason: 'a character device, not a regular file; not opened',
    });
  });

  it('reports a missing file, and a file deleted after it was listed', async () => {
    expect(await resolve('src/none.ts')).toEqual({
      type: 'unresolved',
      ref: 'src/none.ts',
      reason: 'no such file or directory',
    });
    writeFiles(project, { 'gone/soon.txt': 'x' });
    const listed = await completeWith(host, 'file_ref', completeContext({ projectDir: project, prefix: 'gone/' }));
    expect(listed).toEqual(['gone/soon.txt']);
    fs.rmSync(path.join(project, 'gone/soon.txt'));
    expect(await resolve('gone/soon.txt')).toMatchObject({ type: 'unresolved', reason: 'no such file or directory' });
  });

  it('reports an unreadable file (EACCES)', async () => {
    writeFiles(project, { 'locked.txt': 'x' });
    const open = jest
      .spyOn(fs.promises, 'open')
      .mockRejectedValueOnce(Object.assign(new Error('EACCES'), { code: 'EACCES' }));
    try {
      expect(await resolve('locked.txt')).toEqual({
        type: 'unresolved',
        ref: 'locked.txt',
        reason: 'permission denied',
      });
    } finally {
      open.mockRestore();
    }
  });

  // Root reads mode-000 files anyway: the spy above covers that case everywhere.
  (process.getuid?.() === 0 ? it.skip : it)('reports a mode-000 file as unreadable', async () => {
    writeFiles(project, { 'mode000.txt': SECRET });
    fs.chmodSync(path.join(project, 'mode000.txt'), 0);
    expect(await resolve('mode000.txt')).toEqual({
      type: 'unresolved',
      ref: 'mode000.txt',
      reason: 'permission denied',
    });
  });
});

describe('yoi:file-ref directories', () => {
  it('lists entries sorted, directories with a trailing slash', async () => {
    expect(await resolve('src')).toEqual({
      type: 'context',
      label: 'File: src',
      text: 'Directory src (3 entries; file contents not included):\na.ts\nb.ts\nnested/',
    });
  });

  it('caps the listing and says how many were left out', async () => {
    writeFiles(
      project,
      Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`many/f${String(i).padStart(3, '0')}`, ''])),
    );
    const text = ((await resolve('many')) as { text: string }).text.split('\n');
    expect(text[0]).toBe('Directory many (250 entries; file contents not included):');
    expect(text).toHaveLength(202);
    expect(text[200]).toBe('f199');
    expect(text[201]).toBe('… 50 more not shown (the first 200 by name)');
  });

  it('says when a directory is empty', async () => {
    fs.mkdirSync(path.join(project, 'empty'));
    expect(await resolve('empty/')).toMatchObject({
      text: 'Directory empty/ (0 entries; file contents not included):\n(empty)',
    });
  });
});

describe('yoi:file-ref hostile input', () => {
  it.each([
    [{ kind: 'file_ref' }, 'malformed file_ref segment: `path` is not a string'],
    [{ kind: 'file_ref', path: 42 }, 'malformed file_ref segment: `path` is not a string'],
  ])('refuses a malformed segment %j', async (segment, reason) => {
    expect(await resolveWith(host, 'file_ref', segment, resolveContext({ projectDir: project }))).toEqual({
      type: 'unresolved',
      reason,
    });
  });

  it('refuses empty paths, NUL bytes and overlong paths before touching the disk', async () => {
    expect(await resolve('')).toEqual({ type: 'unresolved', ref: '', reason: 'the path is empty' });
    expect(await resolve('src/a.ts\0../../etc/passwd')).toEqual({
      type: 'unresolved',
      ref: 'src/a.ts\uFFFD../../etc/passwd',
      reason: 'the path contains a NUL byte',
    });
    const huge = await resolve('a'.repeat(1 << 20));
    expect(huge).toMatchObject({ type: 'unresolved', reason: 'the path is longer than 4096 bytes' });
    expect((huge as { ref: string }).ref).toHaveLength(257);
  });

  it('returns at once when the run is already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await resolve('src/a.ts', { signal: controller.signal })).toEqual({
      type: 'unresolved',
      ref: 'src/a.ts',
      reason: 'cancelled',
    });
  });
});

describe('yoi:file-ref completions', () => {
  const complete = (prefix: string, limit?: number) =>
    completeWith(host, 'file_ref', completeContext({ projectDir: project, scope: scopeOfProject(), prefix, limit }));

  it('offers readable paths below the typed directory, shallow first, dirs with a slash', async () => {
    expect(await complete('src/')).toEqual(['src/a.ts', 'src/b.ts', 'src/nested/', 'src/nested/c.ts']);
    expect(await complete('src/n')).toEqual(['src/nested/']);
  });

  it('matches names anywhere below, skipping node_modules, .git and out-of-scope entries', async () => {
    const all = await complete('', 1000);
    expect(all).toContain('src/');
    expect(all).toContain('dir with space/ファイル é.md');
    expect(all.some((item) => /node_modules|\.git\/|private|outside-link|etc-link/.test(item))).toBe(false);
    expect(await complete('c.')).toEqual(['src/nested/c.ts']);
  });

  it('honours the limit and offers nothing outside scope', async () => {
    expect(await complete('', 3)).toHaveLength(3);
    expect(await complete('../outside/')).toEqual([]);
    expect(await complete('/etc/')).toEqual([]);
    expect(await complete('x\0y')).toEqual([]);
  });
});
