import fs from 'node:fs';
import type { Stats } from 'node:fs';
import { utf8Boundary } from './utf8Boundary.js';

/** How far a file is sniffed for NUL bytes to call it binary. */
export const BINARY_SNIFF_BYTES = 8 * 1024;
/** Reads are chunked so a cancel is noticed between chunks. */
const CHUNK_BYTES = 1024 * 1024;

/** What reading a (canonical, in-scope) path gave. */
export type FileRead =
  | { kind: 'text'; text: string; size: number; shownBytes: number }
  | { kind: 'directory' }
  | { kind: 'binary' }
  | { kind: 'special'; what: string }
  | { kind: 'missing' }
  | { kind: 'denied' }
  | { kind: 'aborted' }
  | { kind: 'error'; code: string };

/**
 * Reads the head of a regular file as UTF-8 text, at most `maxBytes` (cut at a character
 * boundary; `shownBytes < size` means it was cut). The path is `stat`ed first: directories,
 * FIFOs, sockets and devices are reported and never opened, so nothing blocks. The open
 * itself is non-blocking and refuses a symlink, and the opened file must be the one that was
 * `stat`ed, so a file swapped for a FIFO or a link in between is refused too.
 */
export async function readTextFile(file: string, { maxBytes, signal }: { maxBytes: number; signal: AbortSignal }): Promise<FileRead> {
  if (signal.aborted) return { kind: 'aborted' };
  let stats: Stats;
  try {
    stats = await fs.promises.stat(file);
  } catch (error) {
    return failure(error);
  }
  if (stats.isDirectory()) return { kind: 'directory' };
  if (!stats.isFile()) return { kind: 'special', what: describeSpecial(stats) };
  if (signal.aborted) return { kind: 'aborted' };

  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    return failure(error);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.ino !== stats.ino || opened.dev !== stats.dev) return { kind: 'error', code: 'file changed while being read' };
    const size = opened.size;
    const want = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(want);
    let filled = 0;
    while (filled < want) {
      if (signal.aborted) return { kind: 'aborted' };
      const { bytesRead } = await handle.read(buffer, filled, Math.min(CHUNK_BYTES, want - filled), filled);
      if (bytesRead === 0) break; // shrank while reading: keep what is there
      filled += bytesRead;
    }
    const bytes = buffer.subarray(0, filled);
    if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0)) return { kind: 'binary' };
    const shownBytes = filled < size ? utf8Boundary(bytes) : filled;
    return { kind: 'text', text: new TextDecoder().decode(bytes.subarray(0, shownBytes)), size, shownBytes };
  } catch (error) {
    return failure(error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function failure(error: unknown): FileRead {
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
  if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
  if (code === 'EACCES' || code === 'EPERM') return { kind: 'denied' };
  if (code === 'ELOOP') return { kind: 'error', code: 'file changed while being read' };
  if (code === 'EISDIR') return { kind: 'directory' };
  return { kind: 'error', code };
}

function describeSpecial(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}
