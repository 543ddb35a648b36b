import fs from 'node:fs';

/**
 * Writes `data` from `from` on, looping over short writes: a nearly full disk accepts part of a
 * buffer without an error, and the rest must not be taken for written. Returns the offset reached;
 * on an error the bytes before `error.written` are on disk.
 */
export function writeFully(fd: number, data: Buffer, from = 0): number {
  let off = from;
  try {
    while (off < data.length) off += fs.writeSync(fd, data, off);
  } catch (e) {
    throw Object.assign(e as Error, { written: off });
  }
  return off;
}

/** Bytes before the failure that `writeFully` did write. */
export function bytesWritten(e: unknown, fallback: number): number {
  const written = (e as { written?: unknown }).written;
  return typeof written === 'number' ? written : fallback;
}

/** Write errors that space, a quota or the device may clear: worth keeping the bytes and retrying. */
const STORAGE_ERRORS = new Set(['ENOSPC', 'EDQUOT', 'EFBIG', 'EIO', 'EAGAIN', 'EINTR', 'EROFS']);

/** The `code: message` of a storage error (disk full, quota...), `undefined` for any other error. */
export function storageFailure(e: unknown): string | undefined {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined || !STORAGE_ERRORS.has(code)) return undefined;
  const message = (e as Error).message
    .split('\n')[0]
    .replace(/^[A-Z]+: /, '')
    .replace(/, write$/, '');
  return `${code}: ${message}`;
}
