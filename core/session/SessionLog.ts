import fs from 'node:fs';
import path from 'node:path';
import { stringifyJsonExact } from '../protocol/index.js';
import type { SessionEntry } from './SessionEntry.js';

/**
 * Append-only JSONL writer of one session. Durability contract: an entry reaches the OS (one
 * `write(2)` of whole lines) by the end of the event-loop turn that appended it, and before any
 * event broadcast after it (see `flush`), so it survives the pod being killed (SIGKILL); `sync` (called at every run end) starts an fdatasync that
 * makes it durable against power loss, and `close` (at shutdown) completes one. A crash mid-write leaves at most a torn last line, which
 * readers ignore.
 */
export class SessionLog {
  private fd: number | undefined;
  /** Written since the last `sync`: an fdatasync with nothing to flush still costs a disk flush. */
  private dirty = true;
  private flushing = false;
  private flushAgain = false;

  private constructor(
    readonly sessionId: string,
    readonly file: string,
  ) {
    this.fd = fs.openSync(file, 'a', 0o600);
  }

  /** Creates the log of a new session, writing its first entry. */
  static create(dir: string, sessionId: string, start: SessionEntry): SessionLog {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${sessionId}.jsonl`);
    if (fs.existsSync(file)) throw new Error(`session ${sessionId} already exists`);
    const log = new SessionLog(sessionId, file);
    log.append(start);
    log.sync();
    return log;
  }

  /**
   * Opens an existing session to append to it (after a restore). `synced`: the caller has just
   * fdatasynced the whole file (a compacted session), so the first `sync` has nothing to do.
   */
  static open(file: string, sessionId: string, opts: { synced?: boolean } = {}): SessionLog {
    const log = new SessionLog(sessionId, file);
    log.dirty = !opts.synced;
    // A torn last line must not swallow the next entry: start on a fresh line.
    const size = fs.fstatSync(log.fd!).size;
    if (size > 0) {
      const last = Buffer.alloc(1);
      const rfd = fs.openSync(file, 'r');
      fs.readSync(rfd, last, 0, 1, size - 1);
      fs.closeSync(rfd);
      if (last[0] !== 0x0a) {
        fs.writeSync(log.fd!, '\n');
        log.dirty = true;
      }
    }
    return log;
  }

  /**
   * Adds an entry. Entries of one event-loop turn are written together, with one `write(2)`,
   * when the turn ends — or earlier by `flush()`, which the pod's event bus calls before it
   * delivers anything: no event that follows an entry reaches a client before the entry is
   * written.
   */
  append(entry: SessionEntry): void {
    if (this.fd === undefined) throw new Error(`session log ${this.file} is closed`);
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch {
      line = stringifyJsonExact(entry); // bigint in a raw segment payload
    }
    if (this.pending.length === 0) setImmediate(this.flushSoon);
    this.pending.push(`${line}\n`);
  }

  /** Writes the entries appended so far (one `write(2)`); a no-op when there are none. */
  flush(): void {
    if (this.pending.length === 0 || this.fd === undefined) return;
    const text = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    this.pending = [];
    fs.writeSync(this.fd, text);
    this.dirty = true;
  }

  private pending: string[] = [];
  private readonly flushSoon = () => this.flush();

  /**
   * Flushes to disk without blocking the pod: one asynchronous fdatasync at a time, and
   * another after it if more was written meanwhile. Clients never wait on the disk.
   */
  sync(): void {
    this.flush();
    if (this.fd === undefined || !this.dirty) return;
    if (this.flushing) {
      this.flushAgain = true;
      return;
    }
    this.dirty = false;
    this.flushing = true;
    fs.fdatasync(this.fd, () => {
      this.flushing = false;
      if (this.flushAgain) {
        this.flushAgain = false;
        this.dirty = true;
        this.sync();
      }
    });
  }

  /** Flushes synchronously (whatever is in flight included) and closes the file. */
  close(): void {
    if (this.fd === undefined) return;
    this.flush();
    if (this.dirty || this.flushing) fs.fdatasyncSync(this.fd);
    fs.closeSync(this.fd);
    this.fd = undefined;
  }
}
