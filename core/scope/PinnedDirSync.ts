import fs from 'node:fs';
import path from 'node:path';
import { descriptorPathSync, HAS_PROC_FD } from './descriptorPath.js';
import { pathChanged } from './PinnedDir.js';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = fs.constants;

/** Whether descriptor `fd` is the file at canonical `expected` (see `isOpenedAt`), synchronously. */
export function isOpenedAtSync(fd: number, expected: string): boolean {
  if (HAS_PROC_FD) return descriptorPathSync(fd) === expected;
  try {
    const held = fs.fstatSync(fd);
    const now = fs.lstatSync(expected);
    return fs.realpathSync(expected) === expected && held.dev === now.dev && held.ino === now.ino;
  } catch {
    return false;
  }
}

/**
 * {@link PinnedDir} with synchronous calls and raw descriptors, for checking thousands of files
 * (Grep's inputs): a synchronous call costs a few microseconds where a promise through libuv's
 * thread pool costs tens, so the caller runs these in slices of a few milliseconds and yields
 * in between. Same guarantees: verified at its canonical path when opened, entries reached
 * through its descriptor (Linux), `isStillAt()` to tell it was not moved meanwhile.
 */
export class PinnedDirSync {
  private constructor(
    readonly path: string,
    readonly fd: number,
  ) {}

  /** Throws the open's error or `YOI_ERR_PATH_CHANGED`. */
  static open(dir: string): PinnedDirSync {
    const fd = fs.openSync(dir, O_RDONLY | O_DIRECTORY);
    if (isOpenedAtSync(fd, dir)) return new PinnedDirSync(dir, fd);
    fs.closeSync(fd);
    throw pathChanged(dir);
  }

  get self(): string {
    return HAS_PROC_FD ? `/proc/self/fd/${this.fd}` : this.path;
  }

  /** The canonical path of entry `name`. */
  entry(name: string): string {
    return path.join(this.path, name);
  }

  entries(): fs.Dirent[] {
    return fs.readdirSync(this.self, { withFileTypes: true });
  }

  /**
   * Opens entry `name` (one component, never through a symlink); on Linux it is an entry of
   * the pinned directory by construction (check `isStillAt()` after a series of opens),
   * elsewhere it is checked here. Returns the descriptor, or `undefined` if it cannot be opened.
   */
  openFile(name: string, flags: number): number | undefined {
    if (name === '' || name === '.' || name === '..' || name.includes('/')) return undefined;
    let fd: number;
    try {
      fd = fs.openSync(path.join(this.self, name), flags | O_NOFOLLOW);
    } catch {
      return undefined;
    }
    if (HAS_PROC_FD || isOpenedAtSync(fd, this.entry(name))) return fd;
    fs.closeSync(fd);
    return undefined;
  }

  isStillAt(): boolean {
    return isOpenedAtSync(this.fd, this.path);
  }

  close(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}
