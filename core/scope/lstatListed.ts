import type fs from 'node:fs';
import path from 'node:path';
import { PinnedDir } from './PinnedDir.js';

/** Directories pinned at once while checking a listing. */
const PARALLEL_DIRS = 16;

/**
 * Confirms entries a directory walk listed (canonical absolute paths) against the directories
 * they should be in: each parent is pinned and verified (see {@link PinnedDir}) and the entry
 * is `lstat`ed in it. A walk (tinyglobby, ripgrep) reads directories by path, so a directory
 * swapped for a symlink mid-walk makes it list another directory's names; those are not in
 * the verified directory and are dropped here, with everything else a listing could reveal
 * (type, size, mtime) taken from the verified entry. Returns the `lstat` of each confirmed
 * path; missing, unreadable or swapped ones are absent. Stops early when `signal` aborts.
 */
export async function lstatListed(paths: readonly string[], signal?: AbortSignal): Promise<Map<string, fs.Stats>> {
  const byDir = new Map<string, string[]>();
  for (const p of paths) {
    const dir = path.dirname(p);
    if (dir === p) continue;
    let names = byDir.get(dir);
    if (!names) byDir.set(dir, (names = []));
    names.push(path.basename(p));
  }
  const confirmed = new Map<string, fs.Stats>();
  const dirs = [...byDir];
  for (let i = 0; i < dirs.length && !signal?.aborted; i += PARALLEL_DIRS) {
    await Promise.all(
      dirs.slice(i, i + PARALLEL_DIRS).map(async ([dir, names]) => {
        let pinned: PinnedDir;
        try {
          pinned = await PinnedDir.open(dir);
        } catch {
          return; // gone, unreadable, or not what was walked: none of its entries is shown
        }
        try {
          await Promise.all(
            names.map(async (name) => {
              const stats = await pinned.lstat(name).catch(() => undefined);
              if (stats) confirmed.set(pinned.entry(name), stats);
            }),
          );
        } finally {
          await pinned.close();
        }
      }),
    );
  }
  return confirmed;
}
