import { YoiError } from '../core/errors/YoiError.js';
import { checkCompactionLink, type CompactionLinkStatus } from '../core/session/checkCompactionLink.js';
import { findSessionFile, listSessionSummaries, withListingFields } from '../core/session/listSessionSummaries.js';
import { readSession, type SessionState } from '../core/session/readSession.js';
import { reasonOf } from '../core/session/sessionFiles.js';
import { summaryOfState, type SessionSummary } from '../core/session/summarizeSession.js';
import { liveSessionIds } from './liveSessionIds.js';

export interface SessionDetails {
  readonly summary: SessionSummary;
  readonly state: SessionState;
  readonly link?: { status: CompactionLinkStatus; detail: string };
}

/**
 * What `yoi sessions show` prints about one session (an id or a unique prefix): the log read
 * whole and its chain checked line by line, what the directory says (compacted to, live), and
 * how its `compacted_from` link holds.
 */
export async function loadSessionDetails(dir: string, ref: string): Promise<SessionDetails> {
  const file = findSessionFile(dir, ref);
  let state: SessionState;
  let own: Omit<SessionSummary, 'compacted_to' | 'live'>;
  try {
    state = readSession(file);
    own = summaryOfState(state);
  } catch (e) {
    throw new YoiError('YOI_ERR_SESSION_UNREADABLE', `cannot read session ${file}: ${reasonOf(e)}`);
  }
  const compactedTo = listSessionSummaries(dir).sessions.find((s) => s.id === own.id)?.compacted_to ?? null;
  const summary = { ...withListingFields(own, await liveSessionIds()), compacted_to: compactedTo };
  const link = checkCompactionLink(dir, state.start);
  return { summary, state, ...(link ? { link } : {}) };
}
