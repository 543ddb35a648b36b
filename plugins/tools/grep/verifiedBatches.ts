import fs from 'node:fs';
import path from 'node:path';
import { openRegularFile } from '../../../core/scope/openRegularFile.js';
import { PinnedDir } from '../../../core/scope/PinnedDir.js';
import { isWithin } from '../../../core/scope/ruleMatches.js';
import type { Scope } from '../../../core/scope/Scope.js';
import { isTempFileName } from '../shared/tempFiles.js';

/** Files opened per ripgrep run (each is handed to it as a descriptor). */
export const BATCH_FILES = 256;
/** A NUL in this many first bytes makes a file binary, as for Read. */
const BINARY_SNIFF_BYTES = 8 * 1024;

/** Files listed by the walk, opened and verified, in listing order; the caller closes them. */
export interface VerifiedBatch {
  readonly files: readonly string[];
  readonly handles: readonly fs.promises.FileHandle[];
}

/**
 * Opens the files a walk listed, `BATCH_FILES` at a time, keeping only what may be searched:
 * readable in scope, not an atomic write's temp file, confirmed in its verified directory and
 * opened through it (`openRegularFile`: the descriptor is the checked path), and text (no NUL
 * in its first 8 KiB; binary files are skipped, as ripgrep's walk skips them). Files that
 * vanished, cannot be opened, or changed under the check are dropped silently, as ripgrep
 * drops unreadable ones.
 *
 * FIFOs, sockets and devices are never opened. ripgrep's walk leaves them out unopened; so the
 * model knows what was not searched, the ones in each verified directory of the search under
 * `base` (not hidden, readable) and a listed one (given as the path) are added to `skipped`.
 */
export async function* verifiedBatches(
  listed: readonly string[], { base, scope, signal, skipped }: { base: string; scope: Scope; signal: AbortSignal; skipped: Set<string> },
): AsyncGenerator<VerifiedBatch> {
  const scanned = new Set<string>();
  for (let start = 0; start < listed.length && !signal.aborted; start += BATCH_FILES) {
    const chunk = listed.slice(start, start + BATCH_FILES).filter((f) => !isTempFileName(path.basename(f)) && scope.canRead(f));
    const dirs = new Map<string, Promise<PinnedDir | undefined>>();
    for (const file of chunk) {
      const dir = path.dirname(file);
      if (dirs.has(dir)) continue;
      dirs.set(dir, PinnedDir.open(dir).then(async (pinned) => {
        if (!scanned.has(dir) && isWithin(dir, base)) {
          scanned.add(dir);
          for (const special of await specialEntries(pinned)) if (scope.canRead(special)) skipped.add(special);
        }
        return pinned;
      }).catch(() => undefined));
    }
    let opened: (fs.promises.FileHandle | undefined)[];
    try {
      opened = await Promise.all(chunk.map(async (file) => {
        const dir = await dirs.get(path.dirname(file))!;
        if (!dir) return undefined;
        const result = await openRegularFile(file, dir).catch(() => undefined);
        if (result?.kind === 'special') skipped.add(file);
        if (result?.kind !== 'file') return undefined;
        if (await isBinary(result.handle).catch(() => true)) {
          await result.handle.close().catch(() => undefined);
          return undefined;
        }
        return result.handle;
      }));
    } finally {
      await Promise.all([...dirs.values()].map(async (d) => (await d)?.close()));
    }
    const files: string[] = [];
    const handles: fs.promises.FileHandle[] = [];
    opened.forEach((handle, i) => {
      if (!handle) return;
      files.push(chunk[i]);
      handles.push(handle);
    });
    if (handles.length > 0) yield { files, handles };
  }
}

/** The FIFOs, sockets and devices in a pinned directory (hidden ones left out, as the walk skips them). */
async function specialEntries(dir: PinnedDir): Promise<string[]> {
  const entries = await fs.promises.readdir(dir.self, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => !e.name.startsWith('.') && (e.isFIFO() || e.isSocket() || e.isCharacterDevice() || e.isBlockDevice()))
    .map((e) => dir.entry(e.name));
}

async function isBinary(handle: fs.promises.FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(BINARY_SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, BINARY_SNIFF_BYTES, 0);
  return buffer.subarray(0, bytesRead).includes(0);
}
