import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { PodStatus } from '../protocol/index.js';
import { PodStatusFileSchema } from './PodStatusFileSchema.js';
import { RUNTIME_DIR, ensureOwnDir, readOwnFile, socketTrustProblem, type TrustLabel } from './trustedPath.js';

/** `status.json` of a pod: what `yoi pod list/status` shows without connecting. @beta */
export interface PodStatusFile {
  pod_name: string;
  state: PodStatus;
  session_id: string;
  pid: number;
  socket: string;
  started_at: number;
  parent_socket?: string;
}

/** The temp file `file` is written under before its rename: hidden, beside it, one per process. */
export function atomicTempPath(file: string): string {
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
}

/**
 * Writes a file atomically (temp file + rename) with owner-only permissions. The temp file is
 * created anew (`wx`: never written through a link or into a file someone left there).
 * @beta
 */
export function writeFileAtomic(file: string, data: string): void {
  const tmp = atomicTempPath(file);
  unlinkIfThere(tmp);
  try {
    fs.writeFileSync(tmp, data, { mode: 0o600, flag: 'wx' });
    fs.renameSync(tmp, file);
  } catch (e) {
    // A full disk leaves no partial copy behind; the write's own error is the one to report.
    try {
      fs.unlinkSync(tmp);
    } catch {
      // not there
    }
    throw e;
  }
}

// unlink, not rm({force}): rm walks the path in JavaScript (rimraf), ~0.2 ms a status write.
function unlinkIfThere(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (e) {
    ignoreMissing(e);
  }
}

function ignoreMissing(e: unknown): void {
  if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
}

/**
 * Creates a directory with mode 0700, tightening it if it already exists and is ours; one of
 * another user (or a link, or in a directory others can swap it in) is refused (trustedPath.ts).
 * @beta
 */
export function ensurePrivateDir(dir: string, label: TrustLabel = RUNTIME_DIR): void {
  ensureOwnDir(dir, label);
}

/**
 * True when something accepts connections on `socket` (within `timeoutMs`). A socket that is
 * not the user's (see checkOwnSocket) is never connected to: false.
 * @beta
 */
export function isSocketLive(socket: string, timeoutMs = 1000): Promise<boolean> {
  if (socketTrustProblem(socket) !== undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    const conn = net.connect(socket);
    const done = (live: boolean) => {
      clearTimeout(timer);
      conn.destroy();
      resolve(live);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    conn.once('connect', () => done(true));
    conn.once('error', () => done(false));
  });
}

/**
 * A pod's status.json; undefined when missing, unreadable, not JSON or not an object, or not the
 * user's own file. A malformed field is left out (unknown), the others are kept.
 * @beta
 */
export function readStatusFile(file: string): Partial<PodStatusFile> | undefined {
  try {
    const text = readOwnFile(file);
    if (text === undefined) return undefined;
    const parsed = PodStatusFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? dropUndefined(parsed.data) : undefined;
  } catch {
    return undefined;
  }
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** True when a process with this pid exists (EPERM means it exists but is not ours). @beta */
export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/**
 * A killed process nobody has reaped yet (a detached child whose spawner died, in a container
 * whose init does not reap) still answers signal 0; on Linux its state in /proc says it is dead.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false; // no /proc (not Linux), or gone meanwhile
  }
}
