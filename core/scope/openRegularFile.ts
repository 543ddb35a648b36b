import fs from 'node:fs';
import path from 'node:path';
import { PinnedDir, pathChanged } from './PinnedDir.js';

const { O_RDONLY, O_NONBLOCK } = fs.constants;

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
 */
export async function openRegularFile(file: string, pinned?: PinnedDir): Promise<OpenedFile> {
  const dir = path.dirname(file);
  const name = path.basename(file);
  if (dir === file) return { kind: 'directory' }; // the root
  let parent = pinned;
  if (!parent) {
    try {
      parent = await PinnedDir.open(dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
      throw e;
    }
  }
  try {
    let seen: fs.Stats;
    try {
      seen = await parent.lstat(name);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      throw e;
    }
    // A canonical path has no link at its end: one there now was put in since the check.
    if (seen.isSymbolicLink()) throw pathChanged(file);
    if (seen.isDirectory()) return { kind: 'directory' };
    if (!seen.isFile()) return { kind: 'special', stats: seen };
    const handle = await parent.openFile(name, O_RDONLY | O_NONBLOCK);
    const stats = await handle.stat();
    if (!stats.isFile() || stats.ino !== seen.ino || stats.dev !== seen.dev) {
      await handle.close();
      throw pathChanged(file);
    }
    return { kind: 'file', handle, stats };
  } finally {
    if (!pinned) await parent.close();
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
