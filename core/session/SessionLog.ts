import fs from 'node:fs';
import path from 'node:path';
import { encodeEntry } from './encodeEntry.js';
import { logDetachment, type FileIdentity } from './logDetachment.js';
import type { SessionEntry } from './SessionEntry.js';
import { ensureSessionDir } from './sessionFiles.js';
import { bytesWritten, storageFailure, writeFully } from './writeFully.js';

/** How soon a write that failed for lack of space (or quota, or an I/O error) is tried again. */
const RETRY_MS = 1000;

/**
 * fdatasyncs start at least this far apart: a run's end after a quiet spell starts one at once,
 * runs back to back (a script, a burst of notifications) share one every SYNC_SPACING_MS. Each
 * start wakes a thread of the pool and its completion the pod's thread, in the middle of the
 * next run (bench/latency: ~60 µs of every run's first delta).
 */
export const SYNC_SPACING_MS = 100;

/** Where an opened log continues: its last line's hash, its history length, the file it read. */
export interface SessionLogTail {
  readonly head: Buffer | null;
  readonly historyLength: number;
  /** The file identity a reader saw: the file opened for appending must be the same one. */
  readonly identity?: { readonly dev: number; readonly ino: number };
}

/**
 * Append-only JSONL writer of one session, each line hash-chained to the one before it (see
 * `chainedLine.ts`) and carrying the history length. Durability contract: an entry reaches the
 * OS (one `write(2)` of whole lines) by the end of the event-loop turn that appended it, and
 * before any event broadcast after it (see `flush`), so it survives the pod being killed
 * (SIGKILL); `sync` (called at every run end) starts an fdatasync that makes it durable against
 * power loss (runs back to back share one, see SYNC_SPACING_MS), and `close` (at shutdown)
 * completes one. A crash mid-write leaves at most a torn last line, which readers ignore.
 *
 * A new session's file is created with its first entry after `session_start`: a pod started and
 * stopped (or killed) without any input leaves no empty session behind to be "the newest".
 *
 * A write the disk refuses (full, quota, I/O error) loses nothing: the bytes not written stay in
 * memory, in order, and are written (completing a torn line) by the next flush or a retry every
 * second; `onWriteState` hears when writing stops and when it works again, and `writeFailure`
 * says why meanwhile (the pod refuses new input then, see handleClientMethod). A file deleted or
 * moved from outside is noticed at the next `sync` (`onDetached`, raised synchronously).
 */
export class SessionLog {
  private fd: number | undefined;
  private closed = false;
  /** Only `session_start` is pending and the file does not exist yet. */
  private deferred = false;
  /** Written since the last `sync`: an fdatasync with nothing to flush still costs a disk flush. */
  private dirty = true;
  private flushing = false;
  private flushAgain = false;
  /** When the last fdatasync started (performance.now), and the timer of the next one. */
  private syncedAt = -Infinity;
  private syncTimer: NodeJS.Timeout | undefined;
  private head: Buffer | null;
  private historyLen: number;
  private pending: string[] = [];
  private scheduled = false;
  /** Bytes a failed write left over (the tail of a line included), written before `pending`. */
  private unwritten: Buffer | undefined;
  private retry: NodeJS.Timeout | undefined;
  /** Why writing fails (`ENOSPC: no space left on device`), until a write works again. */
  writeFailure: string | undefined;
  /** Told the reason when writing starts failing, and `undefined` when it works again. */
  onWriteState: (failure: string | undefined, log: SessionLog) => void = () => undefined;
  /** Told once when the file written is no longer the one at `file` (checked after each `sync`). */
  onDetached: (how: 'deleted' | 'moved', log: SessionLog) => void = () => undefined;
  private detached = false;
  /** The open file's identity (fstat once: a descriptor's never changes). */
  private own: FileIdentity | undefined;

  private constructor(
    readonly sessionId: string,
    readonly file: string,
    tail: SessionLogTail,
  ) {
    this.head = tail.head;
    this.historyLen = tail.historyLength;
  }

  /** Starts the log of a new session with its first entry (the file appears with the next one). */
  static create(dir: string, sessionId: string, start: SessionEntry): SessionLog {
    ensureSessionDir(dir);
    const file = path.join(dir, `${sessionId}.jsonl`);
    if (fs.existsSync(file)) throw new Error(`session ${sessionId} already exists`);
    const log = new SessionLog(sessionId, file, { head: null, historyLength: 0 });
    log.deferred = true;
    log.append(start);
    return log;
  }

  /**
   * The first line of a session, for a writer that puts it in place itself (compaction), and
   * where the log continues after it.
   */
  static firstLine(start: SessionEntry): { text: string; tail: SessionLogTail } {
    const { text, hash, historyLength } = encodeEntry(start, null, 0);
    return { text, tail: { head: hash, historyLength } };
  }

  /**
   * Opens an existing session to append to it (after a restore, or the first line written by
   * `firstLine`). `synced`: the caller has just fdatasynced the whole file, so the first `sync`
   * has nothing to do. The file opened must be a regular file of this user and, when `tail`
   * names one, the very file that was read.
   */
  static open(file: string, sessionId: string, tail: SessionLogTail, opts: { synced?: boolean } = {}): SessionLog {
    const log = new SessionLog(sessionId, file, tail);
    const { O_RDWR, O_APPEND, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
    const fd = fs.openSync(file, O_RDWR | O_APPEND | O_NOFOLLOW | O_NONBLOCK);
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) throw new Error(`${file} is not a regular file`);
      if (tail.identity && (st.dev !== tail.identity.dev || st.ino !== tail.identity.ino))
        throw new Error(`${file} was replaced while it was being opened`);
      if ((st.mode & 0o077) !== 0) fs.fchmodSync(fd, 0o600); // a log from before logs were private
      log.fd = fd;
      log.dirty = !opts.synced;
      // A torn last line must not swallow the next entry: start on a fresh line.
      if (st.size > 0) {
        const last = Buffer.alloc(1);
        fs.readSync(fd, last, 0, 1, st.size - 1);
        if (last[0] !== 0x0a) {
          fs.writeSync(fd, '\n');
          log.dirty = true;
        }
      }
    } catch (e) {
      if (log.fd === undefined) fs.closeSync(fd);
      throw e;
    }
    return log;
  }

  /** Hex hash of the last line appended (null before any hashed line). */
  get headHash(): string | null {
    return this.head?.toString('hex') ?? null;
  }

  /**
   * Adds an entry. Entries of one event-loop turn are written together, with one `write(2)`,
   * when the turn ends — or earlier by `flush()`, which the pod's event bus calls before it
   * delivers anything: no event that follows an entry reaches a client before the entry is
   * written.
   */
  append(entry: SessionEntry): void {
    if (this.closed) throw new Error(`session log ${this.file} is closed`);
    const { text, hash, historyLength } = encodeEntry(entry, this.head, this.historyLen);
    this.head = hash;
    this.historyLen = historyLength;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushSoon);
    }
    this.pending.push(text);
  }

  /** Writes the entries appended so far (one `write(2)`); a no-op when there are none. */
  flush(): void {
    if ((this.pending.length === 0 && !this.unwritten) || this.closed) return;
    if (this.fd === undefined && this.deferred && this.pending.length === 1 && !this.unwritten) return; // only session_start so far
    const text = this.pending.length === 1 ? this.pending[0] : this.pending.join('');
    this.pending = [];
    const data = this.unwritten ? Buffer.concat([this.unwritten, Buffer.from(text)]) : Buffer.from(text);
    this.unwritten = undefined;
    let written = 0;
    try {
      // 'ax': never append to a file someone else put at this session's name.
      this.fd ??= fs.openSync(this.file, 'ax', 0o600);
      this.deferred = false;
      written = writeFully(this.fd, data);
    } catch (e) {
      written = bytesWritten(e, 0);
      this.unwritten = data.subarray(written);
      if (written > 0) this.dirty = true;
      const failure = storageFailure(e);
      if (failure === undefined) throw e;
      this.stalled(
        `the session log ${this.file} cannot be written (${failure}): ${this.unwritten.length} bytes wait in memory and are retried every ${RETRY_MS / 1000} s; free some space`,
      );
      return;
    }
    this.dirty = true;
    if (this.writeFailure !== undefined) {
      this.writeFailure = undefined;
      clearTimeout(this.retry);
      this.retry = undefined;
      this.onWriteState(undefined, this);
    }
  }

  private stalled(failure: string): void {
    const first = this.writeFailure === undefined;
    this.writeFailure = failure;
    this.retry ??= setTimeout(() => {
      this.retry = undefined;
      this.flush();
    }, RETRY_MS).unref();
    if (first) this.onWriteState(failure, this);
  }

  private readonly flushSoon = () => {
    this.scheduled = false;
    this.flush();
  };

  /**
   * Flushes to disk without blocking the pod: an asynchronous fdatasync, at once unless one
   * started less than SYNC_SPACING_MS ago (then when that much has passed), one at a time, and
   * another after it if more was written meanwhile. Clients never wait on the disk.
   */
  sync(): void {
    this.flush();
    // Before the run's end is broadcast (the caller's next step): a client that leaves at
    // `run_end`, like `yoi send`, still hears that the turns it just had are not where they seem.
    this.checkAttached();
    this.syncSoon();
  }

  private syncSoon(): void {
    if (this.fd === undefined || !this.dirty || this.syncTimer !== undefined) return;
    if (this.flushing) {
      this.flushAgain = true;
      return;
    }
    const wait = this.syncedAt + SYNC_SPACING_MS - performance.now();
    if (wait > 0) this.syncTimer = setTimeout(this.startSync, wait).unref();
    else this.startSync();
  }

  private readonly startSync = () => {
    this.syncTimer = undefined;
    if (this.fd === undefined || this.closed || !this.dirty) return;
    this.dirty = false;
    this.flushing = true;
    this.syncedAt = performance.now();
    fs.fdatasync(this.fd, () => {
      this.flushing = false;
      if (this.flushAgain) {
        this.flushAgain = false;
        this.dirty = true;
        this.syncSoon();
      }
    });
  };

  /** Deleted or moved from outside, the log goes on into a file nobody finds: say so, once. */
  private checkAttached(): void {
    if (this.detached || this.closed || this.fd === undefined) return;
    try {
      this.own ??= fs.fstatSync(this.fd);
    } catch {
      return;
    }
    const how = logDetachment(this.fd, this.file, this.own);
    if (how === undefined) return;
    this.detached = true;
    this.onDetached(how, this);
  }

  /**
   * Flushes synchronously (whatever is in flight included) and closes the file. Throws, once
   * closed, when bytes could still not be written: the caller says so instead of exiting quietly.
   */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    clearTimeout(this.retry);
    clearTimeout(this.syncTimer);
    const lost = this.unwritten?.length ?? 0;
    if (this.fd !== undefined) {
      // (no fd: nothing but session_start, no file)
      try {
        if (this.dirty || this.flushing) fs.fdatasyncSync(this.fd);
      } catch (e) {
        if (storageFailure(e) === undefined) throw e;
      } finally {
        fs.closeSync(this.fd);
        this.fd = undefined;
      }
    }
    if (lost > 0)
      throw new Error(
        `${lost} bytes of the session log ${this.file} could not be written (${this.writeFailure ?? 'write failed'})`,
      );
  }
}
