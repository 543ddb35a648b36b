import fs from 'node:fs';
import path from 'node:path';
import { isTempFileName } from '../../tools/shared/tempFiles.js';
import { PinnedDir, type Scope } from '../../../core/api.js';

/** Directory entries looked at before giving up on a complete count. */
export const MAX_SCANNED_ENTRIES = 5000;

export interface DirectoryListing {
  /** Names sorted (code point order), directories with a trailing `/`, at most `maxEntries`. */
  readonly entries: readonly string[];
  /** Readable entries found (up to the scan limit). */
  readonly total: number;
  /** True when the directory has more entries than were scanned. */
  readonly partial: boolean;
}

/**
 * A short listing of a directory (canonical and readable). Entries the pod may not read — a
 * denied child, a symlink leading outside scope — are left out, and so are the temp files of
 * atomic writes, so a listing reveals nothing beyond the scope. The directory is pinned and
 * verified first (see `PinnedDir`) and read through its descriptor: a directory swapped for a
 * symlink in between gives an error, never the other directory's names. Returns `undefined`
 * when cancelled.
 */
export async function listDirectory(
  dir: string,
  { scope, maxEntries, signal }: { scope: Scope; maxEntries: number; signal: AbortSignal },
): Promise<DirectoryListing | undefined> {
  const names: string[] = [];
  let partial = false;
  const pinned = await PinnedDir.open(dir);
  const handle = await fs.promises.opendir(pinned.self, { bufferSize: 256 }).catch(async (e: unknown) => {
    await pinned.close();
    throw e;
  });
  try {
    for await (const entry of handle) {
      if (signal.aborted) return undefined;
      if (names.length >= MAX_SCANNED_ENTRIES) {
        partial = true;
        break;
      }
      if (isTempFileName(entry.name)) continue;
      const check = scope.check(path.join(dir, entry.name), 'read');
      if (!check.ok) continue;
      names.push(entry.name + (isDirectory(entry, check.path) ? '/' : ''));
    }
  } finally {
    // Breaking out of the loop closes the handle already; closing twice throws.
    await handle.close().catch(() => undefined);
    await pinned.close();
  }
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { entries: names.slice(0, maxEntries), total: names.length, partial };
}

function isDirectory(entry: fs.Dirent, canonical: string): boolean {
  if (!entry.isSymbolicLink()) return entry.isDirectory();
  try {
    return fs.statSync(canonical).isDirectory();
  } catch {
    return false;
  }
}
