import fs from 'node:fs';
import path from 'node:path';
import { type PinnedDir, pathChanged } from './PinnedDir.js';
import { isOpenedAtSync, PinnedDirSync } from './PinnedDirSync.js';

const { O_RDONLY, O_NONBLOCK, O_NOFOLLOW } = fs.constants;

/** What opening a canonical path for reading found. Facts come from the verified directory only. */
export type OpenedFile =
  | { readonly kind: 'file'; readonly handle: fs.promises.FileHandle; readonly stats: fs.Stats }
  | { readonly kind: 'directory' }
  | { readonly kind: 'special'; readonly stats: fs.Stats }
  | { readonly kind: 'missing' };

/**
 * Opens the regular file at canonical path `file` for reading, verified: its directory is
 * pinned first (the opened directory must be the one at `dirname(file)`, see {@link PinnedDir}),
 * the entry is `lstat`ed in it, and only a regular file is opened — non-blocking, never through a
 * symlink — and must be the inode `lstat` saw. Directories, FIFOs, sockets and devices are
 * reported, never opened (nothing blocks, no device is touched); so no fact about anything
 * outside the checked path is learnt before the verification. The caller closes the handle.
 * Throws `YOI_ERR_PATH_CHANGED` when the path changed under it, or the system's error (EACCES ...).
 *
 * The checks are synchronous system calls (a few microseconds each, like the scope check's own
 * `realpath` before it); only the open, which yields the handle, goes through the thread pool:
 * a promise per check made reading 100 files through `@refs` twice as slow as `readFile`.
 */
export async function openRegularFile(file: string, pinned?: PinnedDir): Promise<OpenedFile> {
  const dir = path.dirname(file);
  const name = path.basename(file);
  if (dir === file) return { kind: 'directory' }; // the root
  let parent: PinnedDir | PinnedDirSync | undefined = pinned;
  if (!parent) {
    try {
      parent = PinnedDirSync.open(dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
      throw e;
    }
  }
  try {
    const inDir = path.join(parent.self, name);
    const seen = fs.lstatSync(inDir, { throwIfNoEntry: false });
    if (!seen) return { kind: 'missing' };
    // A canonical path has no link at its end: one there now was put in since the check.
    if (seen.isSymbolicLink()) throw pathChanged(file);
    if (seen.isDirectory()) return { kind: 'directory' };
    if (!seen.isFile()) return { kind: 'special', stats: seen };
    const handle = await fs.promises.open(inDir, O_RDONLY | O_NONBLOCK | O_NOFOLLOW);
    const stats = isOpenedAtSync(handle.fd, path.join(parent.path, name)) ? fs.fstatSync(handle.fd) : undefined;
    if (!stats?.isFile() || stats.ino !== seen.ino || stats.dev !== seen.dev) {
      await handle.close();
      throw pathChanged(file);
    }
    return { kind: 'file', handle, stats };
  } finally {
    if (parent instanceof PinnedDirSync) parent.close();
  }
}

/** `a FIFO`, `a socket`, `a character device` ... for a non-regular file. */
export function describeSpecial(stats: fs.Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}
