import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HAS_PROC_FD, descriptorPath } from '../../../core/scope/descriptorPath.js';
import { lstatListed } from '../../../core/scope/lstatListed.js';
import { openRegularFile } from '../../../core/scope/openRegularFile.js';
import { PinnedDir } from '../../../core/scope/PinnedDir.js';
import { PinnedDirSync } from '../../../core/scope/PinnedDirSync.js';

let root: string;
let inside: string;
let outside: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'yoi-pin-')));
  inside = path.join(root, 'in', 'd');
  outside = path.join(root, 'out');
  fs.mkdirSync(inside, { recursive: true });
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(inside, 'f.txt'), 'inside\n');
  fs.writeFileSync(path.join(outside, 'f.txt'), 'SECRET\n');
  fs.writeFileSync(path.join(outside, 'only-out.txt'), 'SECRET\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** Puts a symlink to the outside directory where `inside` was (what the swapper does). */
function swapInLink(): string {
  const moved = path.join(root, 'in', 'moved');
  fs.renameSync(inside, moved);
  fs.symlinkSync(outside, inside);
  return moved;
}

const changed = { code: 'YOI_ERR_PATH_CHANGED' };

describe('descriptorPath', () => {
  (HAS_PROC_FD ? it : it.skip)(
    'names the file an open descriptor holds, links on the way resolved (Linux)',
    async () => {
      fs.symlinkSync(outside, path.join(root, 'link'));
      const handle = await fs.promises.open(path.join(root, 'link', 'f.txt'), 'r');
      try {
        expect(await descriptorPath(handle.fd)).toBe(path.join(outside, 'f.txt'));
      } finally {
        await handle.close();
      }
    },
  );
});

describe('PinnedDir', () => {
  it('refuses a directory path that leads elsewhere when opened', async () => {
    swapInLink();
    await expect(PinnedDir.open(inside)).rejects.toMatchObject(changed);
    await expect(PinnedDir.open(path.join(root, 'nope'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps reaching the verified directory after it was swapped for a symlink, and tells it moved', async () => {
    const pinned = await PinnedDir.open(inside);
    try {
      const moved = swapInLink();
      // Entries are reached through the descriptor: creating and renaming happen in the real directory.
      await (
        await fs.promises.open(
          pinned.at('new.txt'),
          fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL,
          0o600,
        )
      ).close();
      await pinned.rename('new.txt', 'renamed.txt');
      expect(fs.readdirSync(moved).sort()).toEqual(['f.txt', 'renamed.txt']);
      expect(fs.readdirSync(outside).sort()).toEqual(['f.txt', 'only-out.txt']);
      expect(await pinned.lstat('only-out.txt').catch((e: NodeJS.ErrnoException) => e.code)).toBe('ENOENT');
      // What is opened must still be at the checked path: the directory moved, so it is refused.
      await expect(pinned.openFile('f.txt', fs.constants.O_RDONLY)).rejects.toMatchObject(changed);
      await expect(pinned.makeDir('sub')).rejects.toMatchObject(changed);
      expect(await pinned.isStillAt()).toBe(false);
    } finally {
      await pinned.close();
    }
  });

  it('opens, creates and pins entries of a directory that stayed in place', async () => {
    await PinnedDir.with(inside, async (pinned) => {
      const handle = await pinned.openFile('f.txt', fs.constants.O_RDONLY);
      expect(await handle.readFile('utf8')).toBe('inside\n');
      await handle.close();
      const sub = await pinned.makeDir('sub');
      expect(sub.path).toBe(path.join(inside, 'sub'));
      await (await sub.openFile('g.txt', fs.constants.O_WRONLY | fs.constants.O_CREAT, 0o600)).close();
      await sub.close();
      expect(fs.existsSync(path.join(inside, 'sub', 'g.txt'))).toBe(true);
      expect(await pinned.isStillAt()).toBe(true);
    });
  });

  it('never opens an entry through a symlink', async () => {
    fs.symlinkSync(path.join(outside, 'f.txt'), path.join(inside, 'link.txt'));
    await PinnedDir.with(inside, async (pinned) => {
      await expect(pinned.openFile('link.txt', fs.constants.O_RDONLY)).rejects.toMatchObject({ code: 'ELOOP' });
      expect(() => pinned.at('../out')).toThrow(/not a single path component/);
    });
  });
});

describe('PinnedDirSync', () => {
  it('verifies like PinnedDir, opens entries through the descriptor, and tells a move', () => {
    const link = path.join(root, 'link');
    fs.symlinkSync(outside, link);
    expect(() => PinnedDirSync.open(link)).toThrow(expect.objectContaining(changed));
    const pinned = PinnedDirSync.open(inside);
    try {
      expect(pinned.entries().map((e) => e.name)).toEqual(['f.txt']);
      const fd = pinned.openFile('f.txt', fs.constants.O_RDONLY)!;
      expect(fs.readFileSync(fd, 'utf8')).toBe('inside\n');
      fs.closeSync(fd);
      expect(pinned.openFile('../out/f.txt', fs.constants.O_RDONLY)).toBeUndefined();
      fs.symlinkSync(path.join(outside, 'f.txt'), path.join(inside, 'l.txt'));
      expect(pinned.openFile('l.txt', fs.constants.O_RDONLY)).toBeUndefined(); // never through a link
      expect(pinned.isStillAt()).toBe(true);
      swapInLink();
      // Entries are still those of the verified directory, and the move shows.
      expect(pinned.openFile('only-out.txt', fs.constants.O_RDONLY)).toBeUndefined();
      expect(pinned.isStillAt()).toBe(false);
    } finally {
      pinned.close();
    }
  });
});

describe('openRegularFile', () => {
  it('opens a regular file, and reports what it does not open', async () => {
    const opened = await openRegularFile(path.join(inside, 'f.txt'));
    expect(opened.kind).toBe('file');
    if (opened.kind === 'file') {
      expect(await opened.handle.readFile('utf8')).toBe('inside\n');
      await opened.handle.close();
    }
    execFileSync('mkfifo', [path.join(inside, 'fifo')]);
    expect(await openRegularFile(path.join(inside, 'fifo'))).toMatchObject({ kind: 'special' });
    expect(await openRegularFile(inside)).toEqual({ kind: 'directory' });
    expect(await openRegularFile(path.join(inside, 'missing'))).toEqual({ kind: 'missing' });
    expect(await openRegularFile(path.join(inside, 'missing', 'deeper'))).toEqual({ kind: 'missing' });
  });

  it('reads nothing through a directory swapped for a symlink, or a file swapped for one', async () => {
    const file = path.join(inside, 'f.txt');
    swapInLink();
    await expect(openRegularFile(file)).rejects.toMatchObject(changed);
    await expect(openRegularFile(path.join(inside, 'only-out.txt'))).rejects.toMatchObject(changed);
    fs.rmSync(inside);
    fs.mkdirSync(inside);
    fs.symlinkSync(path.join(outside, 'f.txt'), file);
    await expect(openRegularFile(file)).rejects.toMatchObject(changed);
  });
});

describe('lstatListed', () => {
  it('keeps only entries that are in the verified directories, with their own stats', async () => {
    fs.mkdirSync(path.join(root, 'in', 'e'));
    fs.writeFileSync(path.join(root, 'in', 'e', 'g.txt'), '12345');
    const listed = [
      path.join(inside, 'f.txt'),
      path.join(inside, 'only-out.txt'),
      path.join(root, 'in', 'e', 'g.txt'),
      path.join(root, 'in', 'gone', 'x'),
    ];
    const stats = await lstatListed(listed);
    expect([...stats.keys()].sort()).toEqual([path.join(inside, 'f.txt'), path.join(root, 'in', 'e', 'g.txt')]);
    expect(stats.get(path.join(root, 'in', 'e', 'g.txt'))!.size).toBe(5);

    swapInLink(); // a walk now lists the outside names under `inside`
    const after = await lstatListed([path.join(inside, 'f.txt'), path.join(inside, 'only-out.txt')]);
    expect([...after.keys()]).toEqual([]);
  });
});
