import fs from 'node:fs';
import path from 'node:path';
import { YoiError } from '../errors/YoiError.js';

/**
 * Paths yoi trusts with its control plane (runtime directories, scope.lock, sockets, the trust
 * store) must be the user's: another local user who pre-creates `/tmp/yoi-<uid>` could
 * otherwise swap in her own scope.lock or bind the socket a client connects to. Every check
 * uses lstat or the descriptor actually opened (O_NOFOLLOW), never a path followed twice.
 * Where the OS has no uids (Windows) there is nothing to compare and the checks pass.
 */

/** What a path is and how to fix it, for the one-line refusal. @beta */
export interface TrustLabel {
  readonly what: string;
  readonly fix: string;
}

export const RUNTIME_DIR: TrustLabel = {
  what: 'runtime directory',
  fix: 'remove it, or set YOI_RUNTIME_DIR to a directory you own',
};
/** @beta */
export const RUNTIME_FILE: TrustLabel = {
  what: 'runtime file',
  fix: 'remove it when no pod is running, or set YOI_RUNTIME_DIR to a directory you own',
};
export const POD_SOCKET: TrustLabel = {
  what: 'pod socket',
  fix: 'not connecting to it; remove it, or set YOI_RUNTIME_DIR to a directory you own',
};

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
const O_DIRECTORY = fs.constants.O_DIRECTORY ?? 0;
const GROUP_OTHER_WRITE = 0o022;
const STICKY = 0o1000;

function currentUid(): number | undefined {
  return typeof process.getuid === 'function' ? process.getuid() : undefined;
}

function refuse(label: TrustLabel, p: string, problem: string): YoiError {
  return new YoiError('YOI_ERR_UNTRUSTED_PATH', `${label.what} ${p} ${problem}: ${label.fix}`);
}

const mode = (st: fs.Stats) => `0${(st.mode & 0o7777).toString(8).padStart(3, '0')}`;

/** Why an entry is not the user's own: a link, the wrong kind, another owner, writable by others. */
function ownProblem(st: fs.Stats, kind: 'directory' | 'file' | 'socket', uid: number): string | undefined {
  if (st.isSymbolicLink()) return 'is a symbolic link';
  const right = kind === 'directory' ? st.isDirectory() : kind === 'file' ? st.isFile() : st.isSocket();
  if (!right) return `is not a ${kind === 'file' ? 'regular file' : kind}`;
  if (st.uid !== uid) return `is owned by uid ${st.uid}, not you (uid ${uid})`;
  // A socket's mode is not who may replace it (its directory decides that).
  if (kind !== 'socket' && (st.mode & GROUP_OTHER_WRITE) !== 0) return `is writable by other users (mode ${mode(st)})`;
  return undefined;
}

/**
 * Why `dir`'s ancestors would let another user replace it: each directory on its real path
 * must belong to the user or root, and be writable by nobody else unless sticky (like /tmp,
 * where only an entry's owner may rename or remove it).
 */
function ancestorProblem(dir: string, uid: number): string | undefined {
  let current: string;
  try {
    current = fs.realpathSync.native(path.dirname(dir));
  } catch {
    return undefined; // a missing parent is reported by whatever needs it
  }
  for (let hops = 0; hops < 256; hops++) {
    const st = fs.statSync(current, { throwIfNoEntry: false });
    if (st) {
      if (st.uid !== uid && st.uid !== 0) return `lies in ${current}, owned by uid ${st.uid}`;
      if ((st.mode & GROUP_OTHER_WRITE) !== 0 && (st.mode & STICKY) === 0)
        return `lies in ${current}, which other users can write (mode ${mode(st)})`;
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

/** Opens `dir` itself (never a link), for fstat/fchmod on what was opened. */
function openDir(dir: string, label: TrustLabel): number {
  try {
    return fs.openSync(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // With O_DIRECTORY, Linux reports a link as ENOTDIR: lstat tells which it is.
    if (code === 'ELOOP' || fs.lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink())
      throw refuse(label, dir, 'is a symbolic link');
    if (code === 'ENOTDIR') throw refuse(label, dir, 'is not a directory');
    throw e;
  }
}

/**
 * Creates `dir` (mode 0700, parents too) or checks the existing one: it must be a directory of
 * the user's, not a link, in ancestors no one else can swap it in. Its own directory with a
 * loose mode is tightened to 0700 (safe: nobody else owns it); anything else is refused with
 * one line naming the path and the fix.
 */
export function ensureOwnDir(dir: string, label: TrustLabel = RUNTIME_DIR): void {
  const uid = currentUid();
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    // Something else is there (a file, a dangling link): opening it says what.
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (uid === undefined) return;
  const fd = openDir(dir, label);
  try {
    const st = fs.fstatSync(fd);
    const problem = ownProblem(st, 'directory', uid);
    if (problem && !problem.startsWith('is writable')) throw refuse(label, dir, problem);
    if ((st.mode & 0o7777) !== 0o700) fs.fchmodSync(fd, 0o700);
  } finally {
    fs.closeSync(fd);
  }
  const above = ancestorProblem(dir, uid);
  if (above) throw refuse(label, dir, above);
}

/**
 * Checks an existing directory the way {@link ensureOwnDir} does, changing nothing (clients).
 * Returns false when it does not exist.
 */
export function checkOwnDir(dir: string, label: TrustLabel = RUNTIME_DIR): boolean {
  const uid = currentUid();
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (!st) return false;
  if (uid === undefined) return true;
  const problem = ownProblem(st, 'directory', uid) ?? ancestorProblem(dir, uid);
  if (problem) throw refuse(label, dir, problem);
  return true;
}

/**
 * Opens a file of the user's without following a link (nor blocking on a FIFO) and checks
 * the descriptor it got: a regular file, the user's, writable by nobody else. `create` makes
 * it (0600) when missing; `tighten` fixes a loose mode of the user's own file. Returns the
 * descriptor (the caller closes it), or undefined when the file does not exist.
 * @beta
 */
export function openOwnFile(
  file: string,
  label: TrustLabel,
  opts: { create?: boolean; tighten?: boolean; write?: boolean; append?: boolean } = {},
): number | undefined {
  const uid = currentUid();
  const access = opts.append
    ? fs.constants.O_WRONLY | fs.constants.O_APPEND
    : opts.write
      ? fs.constants.O_RDWR
      : O_RDONLY;
  const flags = access | O_NOFOLLOW | O_NONBLOCK | (opts.create ? fs.constants.O_CREAT : 0);
  let fd: number;
  try {
    fd = fs.openSync(file, flags, 0o600);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw refuse(label, file, 'is a symbolic link');
    if (code === 'EISDIR' || code === 'ENXIO') throw refuse(label, file, 'is not a regular file');
    throw e;
  }
  if (uid === undefined) return fd;
  try {
    const st = fs.fstatSync(fd);
    const problem = ownProblem(st, 'file', uid);
    if (problem && !(opts.tighten && problem.startsWith('is writable'))) throw refuse(label, file, problem);
    if (problem) fs.fchmodSync(fd, st.mode & 0o700);
    return fd;
  } catch (e) {
    fs.closeSync(fd);
    throw e;
  }
}

/**
 * Most of a file {@link readOwnFile} reads. yoi's own files (a pod's status, the children it
 * spawned, scope.lock, the trust store) are kilobytes; a 300 MB one made `yoi pod list` run out
 * of heap after a minute.
 */
export const MAX_OWN_FILE_BYTES = 16 * 1024 * 1024;

/**
 * The text of a file of the user's (see {@link openOwnFile}); undefined when it does not exist.
 * Refuses one over `maxBytes`, measured as it is read (it may grow meanwhile). @beta
 */
export function readOwnFile(
  file: string,
  label: TrustLabel = RUNTIME_FILE,
  maxBytes = MAX_OWN_FILE_BYTES,
): string | undefined {
  const fd = openOwnFile(file, label);
  if (fd === undefined) return undefined;
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, maxBytes + 1 - total));
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) {
        const limit = maxBytes % 1048576 === 0 ? `${maxBytes / 1048576} MiB` : `${maxBytes} bytes`;
        throw refuse(label, file, `is over ${limit}, more than yoi's files hold`);
      }
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Checks a socket before connecting (Node has no SO_PEERCRED): the socket file must be the
 * user's and not a link, in a directory only the user controls (see `checkSocketDir`).
 * Returns false when there is nothing at that path; throws the refusal when someone else's
 * socket (or anything but a socket) is there.
 * @beta
 */
export function checkOwnSocket(socket: string, label: TrustLabel = POD_SOCKET): boolean {
  const uid = currentUid();
  const st = fs.lstatSync(socket, { throwIfNoEntry: false });
  if (!st) return false;
  if (uid === undefined) return true;
  const problem = ownProblem(st, 'socket', uid);
  if (problem) throw refuse(label, socket, problem);
  checkSocketDir(socket, label);
  return true;
}

/**
 * The directory of a socket must keep others from replacing it: the user's own, or owned by
 * root and writable by nobody else or sticky (a `--socket` in /tmp), not a link, in safe
 * ancestors.
 */
export function checkSocketDir(socket: string, label: TrustLabel = POD_SOCKET): void {
  const uid = currentUid();
  if (uid === undefined) return;
  const dir = path.dirname(socket);
  const st = fs.lstatSync(dir, { throwIfNoEntry: false });
  if (!st) return; // binding or connecting fails with ENOENT on its own
  if (st.isSymbolicLink()) throw refuse(label, socket, `lies in ${dir}, a symbolic link`);
  if (st.uid !== uid && st.uid !== 0) throw refuse(label, socket, `lies in ${dir}, owned by uid ${st.uid}`);
  if ((st.mode & GROUP_OTHER_WRITE) !== 0 && (st.mode & STICKY) === 0) {
    throw refuse(label, socket, `lies in ${dir}, which other users can write (mode ${mode(st)})`);
  }
  const above = ancestorProblem(dir, uid);
  if (above) throw refuse(label, socket, above);
}

/**
 * Before a pod binds `socket`: whether something is already there (a live or stale socket, a
 * leftover file of the user's, which the pod may remove). Anything another user owns there,
 * or a directory others could swap it in, is refused.
 */
export function checkOwnSocketOrFile(socket: string, label: TrustLabel = POD_SOCKET): boolean {
  checkSocketDir(socket, label);
  const uid = currentUid();
  const st = fs.lstatSync(socket, { throwIfNoEntry: false });
  if (!st) return false;
  if (uid !== undefined && st.uid !== uid)
    throw refuse(label, socket, `is owned by uid ${st.uid}, not you (uid ${uid})`);
  return true;
}

/** Like {@link checkOwnSocket}, as a reason instead of a throw (`undefined`: safe to connect). @beta */
export function socketTrustProblem(socket: string): 'missing' | YoiError | undefined {
  try {
    return checkOwnSocket(socket) ? undefined : 'missing';
  } catch (e) {
    if (e instanceof YoiError) return e;
    return 'missing';
  }
}
