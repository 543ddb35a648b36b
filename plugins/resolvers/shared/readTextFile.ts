import { utf8Boundary } from './utf8Boundary.js';
import { describeSpecial, type OpenedFile, openRegularFile } from '../../../core/api.js';

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
 * boundary; `shownBytes < size` means it was cut). The file is opened verified (see
 * `openRegularFile`): directories, FIFOs, sockets and devices are reported and never opened,
 * so nothing blocks, and a path that led elsewhere by the time it was opened (a directory on
 * the way swapped for a symlink, a file swapped for a link or a FIFO) is refused before any
 * byte — or any fact about what it led to — is used.
 */
export async function readTextFile(
  file: string,
  { maxBytes, signal }: { maxBytes: number; signal: AbortSignal },
): Promise<FileRead> {
  if (signal.aborted) return { kind: 'aborted' };
  let opened: OpenedFile;
  try {
    opened = await openRegularFile(file);
  } catch (error) {
    return failure(error);
  }
  if (opened.kind === 'missing' || opened.kind === 'directory') return { kind: opened.kind };
  if (opened.kind === 'special') return { kind: 'special', what: describeSpecial(opened.stats) };
  const { handle, stats } = opened;
  try {
    if (signal.aborted) return { kind: 'aborted' };
    const size = stats.size;
    const want = Math.min(size, maxBytes);
    // Not zero-filled: only the bytes read (`filled`) are ever looked at.
    const buffer = Buffer.allocUnsafe(want);
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
  if (code === 'ELOOP' || code === 'YOI_ERR_PATH_CHANGED')
    return { kind: 'error', code: 'file changed while being read' };
  if (code === 'EISDIR') return { kind: 'directory' };
  return { kind: 'error', code };
}
