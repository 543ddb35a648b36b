import fs from 'node:fs';
import path from 'node:path';
import { YoiError } from '../errors/YoiError.js';
import { listSessions } from './readSession.js';
import { isSessionId, reasonOf } from './sessionFiles.js';
import { summarizeSession, type SessionSummary } from './summarizeSession.js';

export interface UnreadableSession {
  readonly file: string;
  readonly reason: string;
}

export interface SessionListing {
  /** Most recently active first (ties: newest id first). */
  readonly sessions: SessionSummary[];
  /** Files named like sessions that are not readable session logs, with why. */
  readonly unreadable: UnreadableSession[];
}

/**
 * Every session log of a directory, summarised (see summarizeSession), with `compacted_to`
 * filled in from the sessions compacted from each. `live`: ids of sessions a running pod has
 * open.
 */
export function listSessionSummaries(
  dir: string,
  opts: { verify?: boolean; live?: ReadonlySet<string> } = {},
): SessionListing {
  const sessions: SessionSummary[] = [];
  const unreadable: UnreadableSession[] = [];
  for (const file of listSessions(dir)) {
    try {
      sessions.push(withListingFields(summarizeSession(file, opts), opts.live));
    } catch (e) {
      unreadable.push({ file, reason: reasonOf(e) });
    }
  }
  const byId = new Map(sessions.map((s) => [s.id, s]));
  for (const s of [...sessions].sort((a, b) => a.started - b.started)) {
    const from = s.compacted_from ? byId.get(s.compacted_from) : undefined;
    if (from) from.compacted_to = s.id; // the newest wins
  }
  sessions.sort((a, b) => b.last_activity - a.last_activity || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return { sessions, unreadable };
}

/** A file's summary with what only the directory tells, in the order `yoi sessions --json` prints. */
export function withListingFields(
  s: Omit<SessionSummary, 'compacted_to' | 'live'>,
  live?: ReadonlySet<string>,
): SessionSummary {
  const { id, pod, started, last_activity, items, compacted_from, ...rest } = s;
  return {
    id,
    pod,
    started,
    last_activity,
    items,
    compacted_from,
    compacted_to: null,
    live: live?.has(id) ?? false,
    ...rest,
  };
}

/**
 * The file of a session given by its id or a unique prefix of it (as `git` takes commits). One
 * line errors: no such session, or a prefix several sessions share.
 */
export function findSessionFile(dir: string, ref: string): string {
  if (!isSessionId(ref))
    throw new YoiError(
      'YOI_ERR_SESSION_NOT_FOUND',
      `no session ${JSON.stringify(ref)} in ${dir} (session ids are letters, digits and dashes)`,
    );
  const exact = path.join(dir, `${ref}.jsonl`);
  if (fs.existsSync(exact)) return exact;
  const matches = listSessions(dir).filter((f) => path.basename(f).startsWith(ref));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) throw new YoiError('YOI_ERR_SESSION_NOT_FOUND', `no session ${ref} in ${dir}`);
  throw new YoiError(
    'YOI_ERR_SESSION_AMBIGUOUS',
    `session id ${ref} matches ${matches.length} sessions; give more of it`,
  );
}
