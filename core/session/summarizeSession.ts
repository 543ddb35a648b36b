import fs from 'node:fs';
import { isUtf8 } from 'node:buffer';
import path from 'node:path';
import { z } from 'zod';
import { ChainCheck, type ChainReport } from './ChainCheck.js';
import { SessionLineMetaSchema } from './SessionEntry.js';
import { parseEntry, replaySession, type SessionState } from './readSession.js';
import { eachLine, openSessionFile, readRange, readWhole } from './sessionFiles.js';

/** One session as `yoi sessions --json` lists it. */
export const SessionSummarySchema = z.object({
  id: z.string(),
  pod: z.string(),
  /** ms since the epoch: the session's `session_start`. */
  started: z.number(),
  /** ms since the epoch: its last entry (the file's mtime when the end could not be read). */
  last_activity: z.number(),
  /** History items; null for a large log written before logs recorded their length. */
  items: z.number().int().nonnegative().nullable(),
  /** The session this one was compacted from. */
  compacted_from: z.string().nullable(),
  /** The (newest) session compacted from this one. */
  compacted_to: z.string().nullable(),
  /** A running pod has this session open. */
  live: z.boolean(),
  chain: z.enum(['intact', 'broken', 'unchained']),
  /** `all`: every line was checked; `ends`: the first line and the last 16 KiB (a large log). */
  chain_checked: z.enum(['all', 'ends']),
  chain_break: z
    .object({ line: z.number().int().optional(), from_end: z.number().int().optional(), reason: z.string() })
    .optional(),
  /** Unreadable lines skipped (known when every line was read). */
  skipped_lines: z.number().int().nonnegative().optional(),
  invalid_utf8_lines: z.number().int().nonnegative().optional(),
  file: z.string(),
  bytes: z.number().int().nonnegative(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

/** A log up to this size is read whole. */
export const WHOLE_BYTES = 64 * 1024;
/** Read at the end of a larger log (enough for its last few entries). */
export const END_BYTES = 16 * 1024;
/** A first or last line longer than this is not read for a listing. */
const MAX_END_LINE = 16 * 1024 * 1024;

/**
 * Summarises one session log for a listing without reading more than it needs: a log up to
 * 64 KiB (or with `verify`) is read whole and replayed; a larger one only at its ends — its
 * first line (`session_start`) and its last 16 KiB (growing only while no whole line is in it,
 * up to 16 MiB), where the last entry gives the last activity and, through `history_len`, the
 * history size. The hash chain is checked over what was read (`chain_checked`). Throws an
 * `Error` with one line when the file is not a readable session log of this user.
 */
export function summarizeSession(
  file: string,
  opts: { verify?: boolean } = {},
): Omit<SessionSummary, 'compacted_to' | 'live'> {
  const opened = openSessionFile(file);
  try {
    const base = { file, bytes: opened.size };
    if (opts.verify || opened.size <= WHOLE_BYTES) {
      return summaryOfState(replaySession(file, readWhole(opened.fd, opened.size), opened.identity));
    }
    const head = firstLine(opened.fd, opened.size, file);
    const start = isUtf8(head) ? parseEntry(head.toString('utf8')) : undefined;
    if (start?.type !== 'session_start') throw new Error('not a yoi session log (no session_start)');
    checkName(file, start.session_id);
    const headCheck = new ChainCheck();
    headCheck.add(1, head, true);
    const headReport = headCheck.report();
    const end = lastLines(opened.fd, opened.size, head.length + 1, headReport.status === 'unchained');
    const broken = headReport.status === 'broken' ? headReport : end.chain.status === 'broken' ? end.chain : undefined;
    return {
      id: start.session_id,
      pod: start.pod_name,
      started: start.ts,
      last_activity: end.last?.ts ?? opened.mtimeMs,
      items: end.last?.history_len ?? null,
      compacted_from: start.compacted_from?.session_id ?? null,
      ...chainFields(broken ?? headReport, 'ends'),
      ...base,
    };
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** The summary of a session read whole. */
export function summaryOfState(state: SessionState): Omit<SessionSummary, 'compacted_to' | 'live'> {
  checkName(state.file, state.start.session_id);
  return {
    id: state.sessionId,
    pod: state.start.pod_name,
    started: state.start.ts,
    last_activity: state.lastActivity,
    items: state.history.length,
    compacted_from: state.start.compacted_from?.session_id ?? null,
    ...chainFields(state.chain, 'all'),
    skipped_lines: state.skippedLines,
    invalid_utf8_lines: state.invalidUtf8Lines,
    file: state.file,
    bytes: state.bytes,
  };
}

function chainFields(report: Pick<ChainReport, 'status' | 'break'>, checked: 'all' | 'ends') {
  const b = report.break;
  return {
    chain: report.status,
    chain_checked: checked,
    ...(report.status === 'broken' && b
      ? {
          chain_break: {
            ...(b.line !== undefined ? { line: b.line } : {}),
            ...(b.fromEnd !== undefined ? { from_end: b.fromEnd } : {}),
            reason: b.reason,
          },
        }
      : {}),
  };
}

/** A file that is not named after the session it holds was copied or renamed: not this session. */
function checkName(file: string, sessionId: string): void {
  if (path.basename(file) !== `${sessionId}.jsonl`)
    throw new Error(`it holds session ${sessionId}, which is not its name`);
}

/** The first line, read in growing pieces (bounded). */
function firstLine(fd: number, size: number, file: string): Buffer {
  let length = Math.min(size, END_BYTES);
  for (;;) {
    const buf = readRange(fd, 0, length);
    const nl = buf.indexOf(0x0a);
    if (nl >= 0) return buf.subarray(0, nl);
    if (length >= size) return buf;
    if (length >= MAX_END_LINE)
      throw new Error(
        `its first line is longer than ${MAX_END_LINE / 1024 / 1024} MiB, more than a listing reads (\`yoi sessions show ${path.basename(file, '.jsonl')}\` reads it whole)`,
      );
    length = Math.min(size, length * 4);
  }
}

/**
 * The whole lines at the end of the file, after `from` (the end of the first line): their chain
 * checked from the first of them, and the time and history length of the last entry. Lines are
 * told apart cheaply (a listing reads many logs): an object with a string `type` and a numeric
 * `ts`, by `JSON.parse`, is an entry here; only the last one is read with the schema.
 */
function lastLines(
  fd: number,
  size: number,
  from: number,
  unchainedStart: boolean,
): { chain: ChainReport; last?: { ts: number; history_len?: number } } {
  const lines: { line: Buffer; torn: boolean }[] = [];
  eachLine(tailWindow(fd, size, from), (_no, line, torn) => lines.push({ line, torn }));
  const chain = new ChainCheck({ unchainedStart });
  let last: unknown;
  lines.forEach(({ line, torn }, i) => {
    const text = isUtf8(line) ? line.toString('utf8') : undefined;
    if (text?.trim() === '') return;
    const value = text === undefined ? undefined : entryLike(text);
    chain.add(i - lines.length, line, value !== undefined);
    if (value !== undefined && !torn) last = value;
  });
  const meta = last === undefined ? undefined : SessionLineMetaSchema.safeParse(last);
  const found = meta?.success
    ? { ts: meta.data.ts, ...(meta.data.history_len !== undefined ? { history_len: meta.data.history_len } : {}) }
    : undefined;
  return { chain: chain.report(), ...(found ? { last: found } : {}) };
}

function entryLike(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = value as { type?: unknown; ts?: unknown } | null;
  return typeof v?.type === 'string' && typeof v.ts === 'number' ? value : undefined;
}

/**
 * The end of the file from the start of a line: the last 16 KiB without the piece of a line it
 * starts in, growing while it holds no line start (empty when none is found within 16 MiB).
 */
function tailWindow(fd: number, size: number, from: number): Buffer {
  for (let length = END_BYTES; ; length *= 4) {
    const at = Math.max(from, size - length);
    const buf = readRange(fd, at, size - at);
    if (at === from) return buf;
    const nl = buf.indexOf(0x0a);
    if (nl >= 0) return buf.subarray(nl + 1);
    if (length >= MAX_END_LINE) return Buffer.alloc(0);
  }
}
