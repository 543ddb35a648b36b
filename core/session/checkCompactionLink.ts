import fs from 'node:fs';
import path from 'node:path';
import type { SessionEntryOf } from './SessionEntry.js';
import { readSession } from './readSession.js';
import { isSessionId, openSessionFile, readWhole, reasonOf } from './sessionFiles.js';

/**
 * How a compacted session's `compacted_from` relates to the old log today: `intact` (the old log
 * still ends at the line it was compacted at, `at_hash`), `continued` (that line is there and
 * more came after it: the old session was resumed by its id), `altered` (the line is gone: the
 * old log was rewritten), `missing`, `unreadable`, or `unrecorded` (compacted before logs were
 * chained).
 */
export type CompactionLinkStatus = 'intact' | 'continued' | 'altered' | 'missing' | 'unreadable' | 'unrecorded';

export function checkCompactionLink(
  dir: string,
  start: SessionEntryOf<'session_start'>,
): { status: CompactionLinkStatus; detail: string } | undefined {
  const from = start.compacted_from;
  if (!from) return undefined;
  const file = path.join(dir, `${from.session_id}.jsonl`);
  if (!isSessionId(from.session_id) || !fs.existsSync(file))
    return { status: 'missing', detail: `session ${from.session_id} is no longer on disk` };
  if (!from.at_hash) return { status: 'unrecorded', detail: 'compacted before session logs were hash-chained' };
  let head: string | null;
  let holds: boolean;
  try {
    head = readSession(file).chain.head?.toString('hex') ?? null;
    const opened = openSessionFile(file);
    try {
      const line = `{"hash":"${from.at_hash}"`; // a line that starts so
      const buf = readWhole(opened.fd, opened.size);
      holds = buf.subarray(0, line.length).toString() === line || buf.includes(`\n${line}`);
    } finally {
      fs.closeSync(opened.fd);
    }
  } catch (e) {
    return { status: 'unreadable', detail: `${file}: ${reasonOf(e)}` };
  }
  if (head === from.at_hash) return { status: 'intact', detail: 'the old log ends where it was compacted' };
  if (holds) return { status: 'continued', detail: 'the old session was continued after it was compacted' };
  return { status: 'altered', detail: 'the old log no longer holds the line it was compacted at: it was rewritten' };
}
