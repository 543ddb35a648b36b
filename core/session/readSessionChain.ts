import fs from 'node:fs';
import path from 'node:path';
import { YoiError } from '../errors/YoiError.js';
import { isSessionId, reasonOf } from './sessionFiles.js';
import { readSession, type SessionState } from './readSession.js';

export interface SessionChain {
  /** The sessions, oldest first; the last one is the session asked for. */
  readonly sessions: SessionState[];
  /** The oldest session's `compacted_from` names a session that is not in the directory. */
  readonly missing?: string;
}

/**
 * A session and the sessions it was compacted from, walking `compacted_from` back through the
 * directory's session files (the older logs are kept as they were). Stops at the first
 * session that was not made by compaction, or at a file that is gone.
 */
export function readSessionChain(dir: string, sessionId: string): SessionChain {
  const sessions: SessionState[] = [];
  const seen = new Set<string>();
  let id: string | undefined = sessionId;
  while (id !== undefined && !seen.has(id)) {
    seen.add(id);
    const file = path.join(dir, `${id}.jsonl`);
    // A `compacted_from` that is no session id (`../x`) names no file of the directory.
    if (!isSessionId(id) || !fs.existsSync(file)) {
      if (sessions.length === 0) throw new YoiError('YOI_ERR_SESSION_NOT_FOUND', `no session ${id} in ${dir}`);
      return { sessions: sessions.reverse(), missing: id };
    }
    let state: SessionState;
    try {
      state = readSession(file);
    } catch (e) {
      throw new YoiError('YOI_ERR_SESSION_UNREADABLE', `cannot read session ${file}: ${reasonOf(e)}`);
    }
    sessions.push(state);
    id = state.start.compacted_from?.session_id;
  }
  return { sessions: sessions.reverse() };
}
