import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { SegmentSchema, type Segment } from '../../core/protocol/index.js';

/** Inputs kept per project. */
export const MAX_HISTORY_ENTRIES = 200;
/** An input larger than this (a big paste) is recalled in this session only, never written. */
export const MAX_ENTRY_BYTES = 32 * 1024;
/** The file is rewritten with the newest entries once it holds this many lines. */
const REWRITE_AT_LINES = MAX_HISTORY_ENTRIES + MAX_HISTORY_ENTRIES / 2;
/** At most this much of the file's end is read. */
const MAX_READ_BYTES = REWRITE_AT_LINES * (MAX_ENTRY_BYTES + 64);

const EntrySchema = z.object({ at: z.number(), segments: z.array(z.unknown()).min(1) });

/**
 * The inputs typed into `yoi attach` for one project, one JSON line each
 * (`{"at": ms, "segments": [...]}`, segments in wire form so chips and references come back),
 * under the user's state directory: `$XDG_STATE_HOME/yoi/attach-history/<hash of the project
 * directory>.jsonl` (`~/.local/state` without XDG_STATE_HOME). Not in the project's `.yoi/`:
 * pastes can hold secrets, and the model's tools read the project. The directory is 0700 and
 * the file 0600, both the user's own and no symlinks; bounded in entries, entry size and bytes read.
 */
export class InputHistoryFile {
  private lines = 0;

  private constructor(readonly file: string) {}

  /** The history file of the project at `projectDir`. */
  static forProject(projectDir: string, env: NodeJS.ProcessEnv = process.env): InputHistoryFile {
    const base =
      env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME)
        ? env.XDG_STATE_HOME
        : path.join(os.homedir(), '.local', 'state');
    const key = createHash('sha256').update(path.resolve(projectDir)).digest('hex').slice(0, 24);
    return new InputHistoryFile(path.join(base, 'yoi', 'attach-history', `${key}.jsonl`));
  }

  /** The stored inputs, oldest first (lines that do not parse are skipped); [] when there is no file. */
  load(): Segment[][] {
    const fd = this.open(fs.constants.O_RDONLY);
    if (fd === undefined) return [];
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(size, MAX_READ_BYTES);
      const buf = Buffer.alloc(length);
      fs.readSync(fd, buf, 0, length, size - length);
      const lines = buf.toString('utf8').split('\n');
      if (length < size) lines.shift(); // cut in the middle
      const entries: Segment[][] = [];
      for (const line of lines) {
        if (line.trim() === '') continue;
        this.lines++;
        const segments = parseEntry(line);
        if (segments) entries.push(segments);
      }
      return entries.slice(-MAX_HISTORY_ENTRIES);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Appends one input (skipped when larger than {@link MAX_ENTRY_BYTES}); keeps the file bounded. */
  append(segments: readonly Segment[], all: () => readonly (readonly Segment[])[]): void {
    const line = entryLine(segments);
    if (line === undefined) return;
    this.ensureDir();
    if (this.lines + 1 >= REWRITE_AT_LINES) return this.rewrite(all());
    const fd = this.open(fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT)!;
    try {
      fs.writeSync(fd, line);
      this.lines++;
    } finally {
      fs.closeSync(fd);
    }
  }

  /** The newest entries, written to a temp file and renamed over the old one. */
  private rewrite(entries: readonly (readonly Segment[])[]): void {
    const lines = entries.slice(-MAX_HISTORY_ENTRIES).flatMap((e) => entryLine(e) ?? []);
    const tmp = `${this.file}.${process.pid}.tmp`;
    const fd = fs.openSync(
      tmp,
      fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
      0o600,
    );
    try {
      fs.writeSync(fd, lines.join(''));
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, this.file);
    this.lines = lines.length;
  }

  /** Opens the file itself (never through a symlink) and checks it is a regular file of ours. */
  private open(flags: number): number | undefined {
    let fd: number;
    try {
      fd = fs.openSync(this.file, flags | fs.constants.O_NOFOLLOW, 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !(flags & fs.constants.O_CREAT)) return undefined;
      throw e;
    }
    const st = fs.fstatSync(fd);
    if (!st.isFile() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) {
      fs.closeSync(fd);
      throw new Error(`${this.file} is not a regular file of this user`);
    }
    if ((st.mode & 0o077) !== 0) fs.fchmodSync(fd, 0o600);
    return fd;
  }

  /** Creates the directories (0700) and refuses a directory that is a symlink or someone else's. */
  private ensureDir(): void {
    const dir = path.dirname(this.file);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const d of [path.dirname(dir), dir]) {
      const st = fs.lstatSync(d);
      if (!st.isDirectory() || (typeof process.getuid === 'function' && st.uid !== process.getuid())) {
        throw new Error(`${d} is not a directory of this user`);
      }
      if ((st.mode & 0o077) !== 0) fs.chmodSync(d, 0o700);
    }
  }
}

function entryLine(segments: readonly Segment[]): string | undefined {
  const line = `${JSON.stringify({ at: Date.now(), segments })}\n`;
  return Buffer.byteLength(line) > MAX_ENTRY_BYTES ? undefined : line;
}

function parseEntry(line: string): Segment[] | undefined {
  try {
    const entry = EntrySchema.safeParse(JSON.parse(line));
    if (!entry.success) return undefined;
    const segments: Segment[] = [];
    for (const raw of entry.data.segments) {
      const s = SegmentSchema.safeParse(raw);
      if (!s.success) return undefined;
      segments.push(s.data);
    }
    return segments;
  } catch {
    return undefined;
  }
}
