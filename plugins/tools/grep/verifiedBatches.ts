import fs from 'node:fs';
import path from 'node:path';
import { isTempFileName } from '../shared/tempFiles.js';
import { isWithin, PinnedDirSync, type Scope } from '../../../core/api.js';

/**
 * Files opened per ripgrep run (each is handed to it as a descriptor; two batches may be open),
 * from the descriptor limit, read at the first search rather than at every pod's start.
 */
let defaultBatchFiles: number | undefined;
/** A NUL in this many first bytes makes a file binary, as for Read. */
const BINARY_SNIFF_BYTES = 8 * 1024;
/** Longest stretch of synchronous checks before the event loop gets a turn. */
const SLICE_MS = 8;

/** Files listed by the walk, opened and verified, in listing order; the caller closes `fds`. */
export interface VerifiedBatch {
  readonly files: readonly string[];
  readonly fds: readonly number[];
}

/** What is known of one directory of the listing, read once through its verified descriptor. */
interface DirEntries {
  readonly regular: ReadonlySet<string>;
  readonly special: ReadonlySet<string>;
}

/**
 * Opens the files a walk listed, `batchFiles` (default: from the descriptor limit) at a time in
 * listing order, keeping only what may be searched: readable in scope (by its rules: the path
 * is then verified), not an atomic write's temp file, a regular file in its verified directory
 * (`PinnedDirSync`), opened through it and never through a symlink, the directory still at its checked path once its
 * files are open, the file still regular once open (not swapped for a FIFO since), and text
 * (no NUL in its first 8 KiB; binary files are skipped, as ripgrep's walk skips them). Files
 * that vanished, cannot be opened, or changed under the check are dropped silently, as
 * ripgrep drops unreadable ones.
 *
 * FIFOs, sockets and devices are never opened. ripgrep's walk leaves them out unopened; so the
 * model knows what was not searched, the ones in each verified directory of the search under
 * `base` (not hidden, readable) and a listed one (given as the path) are added to `skipped`.
 *
 * The checks are synchronous system calls (thousands of files: promises through the thread
 * pool cost ten times more), run in slices of at most ~{@link SLICE_MS} ms between which the
 * event loop runs.
 */
export async function* verifiedBatches(
  listed: readonly string[],
  {
    base,
    scope,
    signal,
    skipped,
    batchFiles = (defaultBatchFiles ??= batchSize()),
  }: { base: string; scope: Scope; signal: AbortSignal; skipped: Set<string>; batchFiles?: number },
): AsyncGenerator<VerifiedBatch> {
  const known = new Map<string, DirEntries | undefined>();
  const sniff = Buffer.alloc(BINARY_SNIFF_BYTES);
  let slice = performance.now();
  for (let start = 0; start < listed.length && !signal.aborted; start += batchFiles) {
    const pinned = new Map<string, PinnedDirSync | undefined>();
    const opened: { dir: string; file: string; fd: number }[] = [];
    try {
      for (let i = start; i < Math.min(listed.length, start + batchFiles); i++) {
        if (performance.now() - slice > SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          slice = performance.now();
          if (signal.aborted) break;
        }
        const file = listed[i];
        const name = path.basename(file);
        if (isTempFileName(name) || scope.permissionAtCanonical(file) === undefined) continue;
        const dir = path.dirname(file);
        if (!pinned.has(dir)) pinned.set(dir, pin(dir));
        const dirFd = pinned.get(dir);
        if (!dirFd) continue;
        if (!known.has(dir)) known.set(dir, readEntries(dirFd, isWithin(dir, base) ? scope : undefined, skipped));
        const entries = known.get(dir);
        if (entries?.special.has(name)) skipped.add(file);
        if (!entries?.regular.has(name)) continue;
        const fd = dirFd.openFile(name, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
        if (fd === undefined) continue;
        if (isSearchable(fd, sniff)) opened.push({ dir, file, fd });
        else closeQuietly(fd);
      }
      // A directory moved while its files were opened: none of them is searched.
      const moved = new Set([...pinned].filter(([, d]) => d && !d.isStillAt()).map(([dir]) => dir));
      const kept = opened.filter((o) => !moved.has(o.dir));
      for (const o of opened) if (moved.has(o.dir)) closeQuietly(o.fd);
      opened.length = 0;
      if (kept.length > 0) yield { files: kept.map((o) => o.file), fds: kept.map((o) => o.fd) };
    } finally {
      for (const o of opened) closeQuietly(o.fd);
      for (const d of pinned.values()) d?.close();
    }
  }
}

function pin(dir: string): PinnedDirSync | undefined {
  try {
    return PinnedDirSync.open(dir);
  } catch {
    return undefined; // gone, unreadable, or not the directory that was walked
  }
}

/**
 * The regular files and the FIFOs, sockets and devices of a pinned directory, by name; with
 * `scope`, the readable non-hidden special ones are also added to `skipped`.
 */
function readEntries(dir: PinnedDirSync, scope: Scope | undefined, skipped: Set<string>): DirEntries | undefined {
  let entries: fs.Dirent[];
  try {
    entries = dir.entries();
  } catch {
    return undefined;
  }
  const regular = new Set<string>();
  const special = new Set<string>();
  for (const e of entries) {
    if (e.isFile()) regular.add(e.name);
    else if (e.isFIFO() || e.isSocket() || e.isCharacterDevice() || e.isBlockDevice()) {
      special.add(e.name);
      if (scope && !e.name.startsWith('.') && scope.permissionAtCanonical(dir.entry(e.name)) !== undefined)
        skipped.add(dir.entry(e.name));
    }
  }
  return { regular, special };
}

/** Still a regular file now that it is open, and not binary. */
function isSearchable(fd: number, sniff: Buffer): boolean {
  try {
    if (!fs.fstatSync(fd).isFile()) return false;
    const bytesRead = fs.readSync(fd, sniff, 0, BINARY_SNIFF_BYTES, 0);
    return !sniff.subarray(0, bytesRead).includes(0);
  } catch {
    return false;
  }
}

export function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
}

/** A batch as large as the descriptor limit comfortably allows (two batches may be open at once). */
function batchSize(): number {
  let limit = 1024;
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s+/)[3]);
    if (soft > 0) limit = soft;
  } catch {
    // not Linux: assume the common 1024
  }
  return Math.max(16, Math.min(4096, Math.floor((limit - 128) / 3)));
}
