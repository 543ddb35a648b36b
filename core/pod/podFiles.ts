import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { PodStatus } from '../protocol/index.js';

/** `status.json` of a pod: what `yoi pod list/status` shows without connecting. */
export interface PodStatusFile {
  pod_name: string;
  state: PodStatus;
  session_id: string;
  pid: number;
  socket: string;
  started_at: number;
  parent_socket?: string;
}

/** Writes a file atomically (temp file + rename) with owner-only permissions. */
export function writeFileAtomic(file: string, data: string): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(tmp, data, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * Keeps one file rewritten atomically without blocking: writes are asynchronous and coalesced
 * (at most one in flight; the latest content wins). `drain()` waits for the last one.
 */
export class AtomicFileWriter {
  private pending: string | undefined;
  private inFlight: Promise<void> | undefined;

  constructor(private readonly file: string) {}

  write(data: string): void {
    this.pending = data;
    this.inFlight ??= this.loop();
  }

  drain(): Promise<void> {
    return this.inFlight ?? Promise.resolve();
  }

  private async loop(): Promise<void> {
    const tmp = path.join(path.dirname(this.file), `.${path.basename(this.file)}.${process.pid}.tmp`);
    while (this.pending !== undefined) {
      const data = this.pending;
      this.pending = undefined;
      try {
        await fs.promises.writeFile(tmp, data, { mode: 0o600 });
        await fs.promises.rename(tmp, this.file);
      } catch {
        // the runtime dir is gone (shutting down): nothing left to describe
      }
    }
    this.inFlight = undefined;
  }
}

/** Creates a directory with mode 0700, tightening it if it already exists (and is ours). */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = fs.statSync(dir);
  if ((st.mode & 0o777) !== 0o700 && (typeof process.getuid !== 'function' || st.uid === process.getuid())) fs.chmodSync(dir, 0o700);
}

/** True when something accepts connections on `socket` (within `timeoutMs`). */
export function isSocketLive(socket: string, timeoutMs = 1000): Promise<boolean> {
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

export function readStatusFile(file: string): PodStatusFile | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as PodStatusFile;
  } catch {
    return undefined;
  }
}

/** True when a process with this pid exists (EPERM means it exists but is not ours). */
export function isPidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes a directory and everything in it, except the file `keep` (then the directory stays). */
export function removeDirExcept(dir: string, keep?: string): void {
  if (keep === undefined || !fs.existsSync(keep)) {
    fs.rmSync(dir, { recursive: true, force: true });
    return;
  }
  for (const entry of fs.readdirSync(dir)) {
    const p = path.join(dir, entry);
    if (p !== keep) fs.rmSync(p, { recursive: true, force: true });
  }
}
