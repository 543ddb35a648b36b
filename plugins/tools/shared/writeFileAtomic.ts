import fs from 'node:fs';
import path from 'node:path';
import { tempFileName } from './tempFiles.js';
import type { TempJournal } from './TempJournal.js';
import { pathChanged, PinnedDir } from '../../../core/api.js';

const { O_WRONLY, O_CREAT, O_EXCL } = fs.constants;

export interface AtomicWriteOptions {
  /** Permission bits of the new file (an existing file's, to keep them); default 0666 minus the umask. */
  readonly mode?: number;
  /** Where the temp file is recorded while it exists, so a killed write's is cleaned at the next start. */
  readonly journal?: TempJournal;
}

/**
 * Replaces the file at canonical path `file` atomically: the content goes to a temp file in
 * the same directory (`tempFileName`), is flushed to disk, then renamed over the target, so a
 * reader (or a crash) sees the old file or the new one, never half of it. Missing parent
 * directories are created.
 *
 * Everything happens in the verified directory (see {@link PinnedDir}): the target's directory
 * (and each one created) is opened and checked to be the path that was checked, the temp file
 * is created and verified through it, and the rename goes through it too, so a directory on
 * the way swapped for a symlink cannot make the write land elsewhere.
 */
export async function writeFileAtomic(
  file: string,
  content: Uint8Array,
  { mode, journal }: AtomicWriteOptions = {},
): Promise<void> {
  const dir = await pinDirectory(path.dirname(file));
  try {
    const name = path.basename(file);
    const temp = tempFileName(name);
    const forget = await journal?.record(dir.entry(temp));
    try {
      const handle = await dir.openFile(temp, O_WRONLY | O_CREAT | O_EXCL, mode ?? 0o666);
      try {
        await handle.writeFile(content);
        if (mode !== undefined) await handle.chmod(mode); // the umask applied at open
        await handle.sync();
      } finally {
        await handle.close();
      }
      await dir.rename(temp, name);
    } catch (e) {
      await dir.unlink(temp).catch(() => undefined);
      throw e;
    } finally {
      await forget?.();
    }
    // The rename went into the directory verified; if that directory was moved meanwhile the
    // file went with it, and the caller must not report it written at `file`.
    if (!(await dir.isStillAt())) throw pathChanged(path.dirname(file));
  } finally {
    await dir.close();
  }
}

/**
 * Pins canonical directory `dir`, creating it and any missing parent one level at a time, each
 * created directory pinned and verified before the next is made in it (`mkdir -p` would walk
 * the whole path for every level).
 */
async function pinDirectory(dir: string): Promise<PinnedDir> {
  const missing: string[] = [];
  let existing = dir;
  let pinned: PinnedDir | undefined;
  while (!pinned) {
    try {
      pinned = await PinnedDir.open(existing);
    } catch (e) {
      const parent = path.dirname(existing);
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || parent === existing) throw e;
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }
  for (const name of missing) {
    const parent: PinnedDir = pinned;
    try {
      pinned = await parent.makeDir(name);
    } finally {
      await parent.close();
    }
  }
  return pinned;
}
