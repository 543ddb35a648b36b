import fs from 'node:fs';
import { YoiError } from '../errors/YoiError.js';

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** A session id that names a file in the session directory (no separators, no dots). */
export function isSessionId(id: string): boolean {
  return SESSION_ID.test(id);
}

/** The largest session log read whole (a restore holds the history in memory anyway). */
export const MAX_SESSION_BYTES = 1024 * 1024 * 1024;

const ownUid = typeof process.getuid === 'function' ? process.getuid() : undefined;

/**
 * Creates the session directory (0700), or tightens an existing one of ours to 0700: session
 * logs hold whole conversations, file contents included. A directory another user owns is
 * refused — whoever owns it could plant or rewrite sessions.
 */
export function ensureSessionDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  if (!st.isDirectory()) throw new YoiError('YOI_ERR_SESSION_DIR', `the session directory ${dir} is not a directory`);
  if (ownUid !== undefined && st.uid !== ownUid) {
    throw new YoiError(
      'YOI_ERR_SESSION_DIR',
      `the session directory ${dir} belongs to another user (uid ${st.uid}); set sessions.dir to a directory of yours`,
    );
  }
  if ((st.mode & 0o777) !== 0o700) fs.chmodSync(dir, 0o700);
}

/**
 * Opens a session file for reading and checks what was opened, not the path: a regular file of
 * this user. The open neither follows a symlink nor waits on a FIFO. Throws an `Error` with one
 * line saying what is wrong.
 */
export interface OpenedSessionFile {
  readonly fd: number;
  readonly size: number;
  readonly mtimeMs: number;
  readonly identity: { readonly dev: number; readonly ino: number };
}

export function openSessionFile(file: string): OpenedSessionFile {
  const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new Error('it is a symbolic link');
    throw e;
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Error('it is not a regular file');
    if (ownUid !== undefined && st.uid !== ownUid) throw new Error(`it belongs to another user (uid ${st.uid})`);
    return { fd, size: st.size, mtimeMs: st.mtimeMs, identity: { dev: st.dev, ino: st.ino } };
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export function readRange(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length); // filled by the reads; only what was read is returned
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

/** The whole file of an open session (bounded by MAX_SESSION_BYTES). */
export function readWhole(fd: number, size: number): Buffer {
  if (size > MAX_SESSION_BYTES) throw new Error(`it is larger than ${MAX_SESSION_BYTES / 1024 ** 3} GiB`);
  return readRange(fd, 0, size);
}

/**
 * Calls `fn` for each line of `buf` (without its newline), numbered from `firstLine`. `torn`: the
 * last piece, not ended by a newline (a crash mid-write leaves one).
 */
export function eachLine(buf: Buffer, fn: (lineNo: number, line: Buffer, torn: boolean) => void, firstLine = 1): void {
  let at = 0;
  let no = firstLine;
  while (at < buf.length) {
    const nl = buf.indexOf(0x0a, at);
    const end = nl < 0 ? buf.length : nl;
    fn(no++, buf.subarray(at, end), nl < 0);
    at = end + 1;
  }
}

/** One line for why a file could not be read. */
export function reasonOf(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'EACCES') return 'permission denied';
  if (err.code === 'ENOENT') return 'it no longer exists';
  return (err.message ?? String(e)).split('\n')[0];
}
