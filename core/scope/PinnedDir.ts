import fs from 'node:fs';
import path from 'node:path';
import { YoiError } from '../errors/YoiError.js';
import { descriptorPath, HAS_PROC_FD } from './descriptorPath.js';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

/** `<path> changed while it was being opened`: what was opened is not what was checked. */
export function pathChanged(p: string): YoiError {
  return new YoiError('YOI_ERR_PATH_CHANGED', `${p} changed while it was being opened; try again`);
}

/**
 * True when the open `handle` is the file at the canonical path `expected`. On Linux the
 * kernel names the opened file (`/proc/self/fd/N`), so a directory on the way swapped for a
 * symlink shows up as the link's target. Elsewhere (no such name) the path must still resolve
 * to itself, symlink-free, and lead to the very inode held: that narrows the race to the
 * moment between the open and this check instead of closing it (CONTRIBUTING, "File tools").
 */
export async function isOpenedAt(handle: fs.promises.FileHandle, expected: string): Promise<boolean> {
  if (HAS_PROC_FD) return (await descriptorPath(handle.fd)) === expected;
  try {
    const [held, now, real] = await Promise.all([
      handle.stat(),
      fs.promises.lstat(expected),
      fs.promises.realpath(expected),
    ]);
    return real === expected && held.dev === now.dev && held.ino === now.ino;
  } catch {
    return false;
  }
}

/**
 * A directory held open and verified to be the canonical path it was opened by. Entries are
 * reached through the descriptor (`/proc/self/fd/N/<name>` on Linux), never by walking the
 * path again, so swapping a directory on the way for a symlink after the check cannot make
 * an open, a create or a rename land elsewhere: they all happen in the directory verified.
 * `close()` it when done.
 */
export class PinnedDir {
  private constructor(
    /** The canonical path the directory was verified at. */
    readonly path: string,
    private readonly handle: fs.promises.FileHandle,
  ) {}

  /**
   * Opens the directory at canonical `dir`. Throws the open's error (ENOENT, ENOTDIR, EACCES,
   * ...) or `YOI_ERR_PATH_CHANGED` when what was opened is not `dir`.
   */
  static async open(dir: string): Promise<PinnedDir> {
    return PinnedDir.verified(await fs.promises.open(dir, O_RDONLY | O_DIRECTORY), dir);
  }

  /** Runs `fn` with the directory at `dir` pinned, closing it afterwards. */
  static async with<T>(dir: string, fn: (pinned: PinnedDir) => Promise<T>): Promise<T> {
    const pinned = await PinnedDir.open(dir);
    try {
      return await fn(pinned);
    } finally {
      await pinned.close();
    }
  }

  private static async verified(handle: fs.promises.FileHandle, expected: string): Promise<PinnedDir> {
    if (await isOpenedAt(handle, expected)) return new PinnedDir(expected, handle);
    await handle.close().catch(() => undefined);
    throw pathChanged(expected);
  }

  /** A path that reaches the pinned directory itself without walking `path` again (Linux). */
  get self(): string {
    return HAS_PROC_FD ? `/proc/self/fd/${this.handle.fd}` : this.path;
  }

  /** The path to operate on entry `name` (one component) of the pinned directory. */
  at(name: string): string {
    if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0')) {
      throw new Error(`not a single path component: ${JSON.stringify(name)}`);
    }
    return path.join(this.self, name);
  }

  /** The canonical path of entry `name`. */
  entry(name: string): string {
    return path.join(this.path, name);
  }

  lstat(name: string): Promise<fs.Stats> {
    return fs.promises.lstat(this.at(name));
  }

  /**
   * Opens entry `name` (never through a symlink) and checks that the descriptor is that entry;
   * throws `YOI_ERR_PATH_CHANGED` otherwise.
   */
  async openFile(name: string, flags: number, mode?: number): Promise<fs.promises.FileHandle> {
    const handle = await fs.promises.open(this.at(name), flags | O_NOFOLLOW, mode);
    if (await isOpenedAt(handle, this.entry(name))) return handle;
    await handle.close().catch(() => undefined);
    throw pathChanged(this.entry(name));
  }

  /** Pins the subdirectory `name` (not through a symlink). */
  async openDir(name: string): Promise<PinnedDir> {
    return PinnedDir.verified(
      await fs.promises.open(this.at(name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW),
      this.entry(name),
    );
  }

  /** Creates the subdirectory `name` if missing and pins it. */
  async makeDir(name: string): Promise<PinnedDir> {
    await fs.promises.mkdir(this.at(name)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
    return this.openDir(name);
  }

  /** Renames entry `from` to `to`, both in this directory. */
  rename(from: string, to: string): Promise<void> {
    return fs.promises.rename(this.at(from), this.at(to));
  }

  unlink(name: string): Promise<void> {
    return fs.promises.unlink(this.at(name));
  }

  /** Whether the directory is still at the path it was verified at (nobody moved it since). */
  isStillAt(): Promise<boolean> {
    return isOpenedAt(this.handle, this.path);
  }

  close(): Promise<void> {
    return this.handle.close().catch(() => undefined);
  }
}
