import { openRegularFile, ToolRefusal } from '../../../core/api.js';

/** Largest file Read, Write and Edit handle whole (they hash and rewrite whole files). */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** How far a file is searched for a NUL byte to call it binary. */
const BINARY_SNIFF_BYTES = 8 * 1024;

/** A regular file as read: its bytes and its permission bits. */
export interface RegularFile {
  readonly bytes: Buffer;
  readonly mode: number;
}

/**
 * The content of the regular file at a canonical path, or `undefined` if it does not exist.
 * Opened verified (see `openRegularFile`): directories, FIFOs, sockets and devices are refused
 * without being opened, and a path that led elsewhere by the time it was opened (a directory
 * on the way swapped for a symlink) is refused before a byte is read.
 */
export async function readRegularFile(file: string): Promise<RegularFile | undefined> {
  const opened = await openRegularFile(file);
  if (opened.kind === 'missing') return undefined;
  if (opened.kind === 'directory') throw new ToolRefusal(`${file} is a directory (use Glob to list it)`);
  if (opened.kind === 'special') throw new ToolRefusal(`${file} is not a regular file`);
  const { handle, stats } = opened;
  try {
    if (stats.size > MAX_FILE_BYTES)
      throw new ToolRefusal(
        `${file} is too large (${stats.size} bytes; limit ${MAX_FILE_BYTES}): use Grep to search it`,
      );
    return { bytes: await handle.readFile(), mode: stats.mode & 0o7777 };
  } finally {
    await handle.close();
  }
}

/** Refuses writing a file Read could not read back whole. */
export function requireWritableSize(file: string, size: number): void {
  if (size > MAX_FILE_BYTES)
    throw new ToolRefusal(`the new ${file} would be ${size} bytes (limit ${MAX_FILE_BYTES}); nothing was written`);
}

/** A NUL byte near the start: not text. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}
