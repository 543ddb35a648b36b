import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { parseJson, SegmentSchema, type Segment } from '../protocol/index.js';
import type { HistoryItem } from '../history/HistoryItem.js';
import { ChainCheck, type ChainReport } from './ChainCheck.js';
import { SessionEntrySchema, type ReportsSnapshot, type SessionEntry, type SessionEntryOf } from './SessionEntry.js';
import type { SessionLogTail } from './SessionLog.js';
import { eachLine, openSessionFile, readWhole } from './sessionFiles.js';

/** What a session log holds, replayed. */
export interface SessionState {
  readonly sessionId: string;
  readonly file: string;
  readonly start: SessionEntryOf<'session_start'>;
  readonly history: HistoryItem[];
  /** Typed segments of each user input, by index of its user message item in `history`. */
  readonly userInputs: { index: number; segments: Segment[] }[];
  /** The next turn number (turns are counted over the whole session). */
  readonly nextTurn: number;
  /** The last run had no `run_end` (the pod stopped mid-run). */
  readonly interrupted: boolean;
  /** Lines that could not be read (a torn last line is not counted); invalid UTF-8 included. */
  readonly skippedLines: number;
  /** `plugin` entries' data, by plugin, in log order. */
  readonly plugins: ReadonlyMap<string, readonly unknown[]>;
  /** Reports applied (`pod_event` entries, a compacted start's `reports`) and the notes not yet committed to history. */
  readonly reports: ReportsSnapshot;
  /** Of the skipped lines, those that are not valid UTF-8 (never decoded with U+FFFD). */
  readonly invalidUtf8Lines: number;
  /** The hash chain, every line checked. */
  readonly chain: ChainReport;
  /** `ts` of the last entry. */
  readonly lastActivity: number;
  /** Size of the log read. */
  readonly bytes: number;
  /** Where an appending log continues (see SessionLog.open). */
  readonly tail: SessionLogTail;
}

/**
 * Replays a session log. A torn last line (a crash mid-write) is ignored; an unreadable line in
 * the middle — not JSON, not an entry, not UTF-8 — is skipped and counted, so one damaged line
 * never loses the rest of a session. The hash chain is checked on the way (see ChainCheck). The
 * file must be a regular file of this user (see openSessionFile); errors are one line.
 */
export function readSession(file: string): SessionState {
  const opened = openSessionFile(file);
  let buf: Buffer;
  try {
    buf = readWhole(opened.fd, opened.size);
  } finally {
    fs.closeSync(opened.fd);
  }
  return replaySession(file, buf, opened.identity);
}

/** readSession over the bytes of a file already read (`identity`: the file they came from). */
export function replaySession(file: string, buf: Buffer, identity: SessionLogTail['identity']): SessionState {
  const chain = new ChainCheck();
  const entries: SessionEntry[] = [];
  let skipped = 0;
  let invalidUtf8 = 0;
  eachLine(buf, (no, line, torn) => {
    let entry: SessionEntry | undefined;
    if (!isUtf8(line)) {
      if (!torn) {
        skipped++;
        invalidUtf8++;
      }
    } else {
      const text = line.toString('utf8');
      if (text.trim() === '') return;
      entry = parseEntry(text);
      if (!entry && !torn) skipped++;
    }
    chain.add(no, line, entry !== undefined);
    if (entry) entries.push(entry);
  });
  const start = entries[0];
  if (!start || start.type !== 'session_start') throw new Error('not a yoi session log (no session_start)');

  const history: HistoryItem[] = [...(start.history ?? [])];
  const userInputs: SessionState['userInputs'] = [];
  let nextTurn = 0;
  let open = false;
  const plugins = new Map<string, unknown[]>();
  const applied: Record<string, string[]> = Object.fromEntries(
    Object.entries(start.reports?.applied ?? {}).map(([k, v]) => [k, [...v]]),
  );
  let pending: ReportsSnapshot['pending'] = [...(start.reports?.pending ?? [])];
  for (const e of entries.slice(1)) {
    switch (e.type) {
      case 'user_input': {
        const segments = e.segments.flatMap((s) => {
          const r = SegmentSchema.safeParse(s);
          return r.success ? [r.data] : [];
        });
        userInputs.push({ index: history.length, segments });
        const [user, ...context] = e.user_text ? withUserText(e.items, e.user_text, e.segments) : e.items;
        history.push(user?.type === 'message' ? { ...user, segments } : user, ...context);
        open = true;
        break;
      }
      case 'items':
        history.push(...e.items);
        open = true;
        // Notes are committed all at once: every report note logged before this one is in history.
        if (e.source === 'notification') pending = [];
        break;
      case 'pod_event':
        (applied[e.from] ??= []).push(e.request_id);
        if (e.note !== undefined) pending.push({ from: e.from, request_id: e.request_id, note: e.note });
        break;
      case 'usage':
        nextTurn = Math.max(nextTurn, e.turn + 1);
        break;
      case 'run_end':
        open = false;
        break;
      case 'plugin':
        plugins.set(e.plugin, [...(plugins.get(e.plugin) ?? []), e.data]);
        break;
    }
  }
  const report = chain.report();
  return {
    sessionId: start.session_id,
    file,
    start,
    history,
    userInputs,
    nextTurn,
    interrupted: open,
    plugins,
    reports: { applied, pending },
    skippedLines: skipped,
    invalidUtf8Lines: invalidUtf8,
    chain: report,
    lastActivity: entries[entries.length - 1].ts,
    bytes: buf.length,
    tail: { head: report.head, historyLength: history.length, ...(identity ? { identity } : {}) },
  };
}

/** One line as a session entry, or undefined when it is not one. */
export function parseEntry(text: string): SessionEntry | undefined {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    return undefined;
  }
  const r = SessionEntrySchema.safeParse(value);
  return r.success ? r.data : undefined;
}

/** Rebuilds the user message's text from its parts (see SessionEntry `user_text`). */
function withUserText(items: HistoryItem[], parts: (string | number)[], segments: unknown[]): HistoryItem[] {
  const text = parts
    .map((p) => (typeof p === 'string' ? p : String((segments[p] as { content?: unknown } | undefined)?.content ?? '')))
    .join('');
  const [first, ...rest] = items;
  return first?.type === 'message' ? [{ ...first, content: [{ type: 'text', text }] }, ...rest] : items;
}

/** Session files of a directory, newest first (uuidv7 names sort by creation time). */
export function listSessions(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.jsonl'))
    .sort()
    .reverse()
    .map((n) => path.join(dir, n));
}
