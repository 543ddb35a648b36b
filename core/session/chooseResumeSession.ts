import path from 'node:path';
import { YoiError } from '../errors/YoiError.js';
import { describeChain } from './ChainCheck.js';
import { findSessionFile, listSessionSummaries } from './listSessionSummaries.js';
import { reasonOf } from './sessionFiles.js';
import { readSession, type SessionState } from './readSession.js';

export interface ResumeChoice {
  readonly state: SessionState;
  /** Said at start: sessions passed over and why, a broken chain in the one taken. */
  readonly warnings: string[];
  /** Said at start, for information (the session taken is unchained). */
  readonly notes: string[];
}

/**
 * Which session `--resume` restores for pod `podName`.
 *
 * `--resume ID` (an id or a unique prefix): that session, which must be this pod's own — another
 * pod's is refused (the two would append to one log). A broken or missing hash chain is said
 * in a note: the user picked the session knowing `yoi sessions` marks it.
 *
 * `--resume`: this pod's most recently active session that is safe to continue: its hash chain
 * intact, and not empty. A log whose chain is broken, or that cannot be read, is passed over with
 * a note naming the file, and the one before it is taken. A log without a chain (written before
 * logs were chained) is taken only when none of this pod's sessions has one: once a pod writes
 * chained logs, an unchained newer one was not written by it — it is what a model planting a
 * session (a forged `.yoi/sessions/ffff….jsonl`) would leave.
 */
export function chooseResumeSession(dir: string, podName: string, ref: string | true): ResumeChoice {
  return ref === true ? newestOwn(dir, podName) : given(dir, podName, ref);
}

function given(dir: string, podName: string, ref: string): ResumeChoice {
  const file = findSessionFile(dir, ref);
  let state: SessionState;
  try {
    state = readSession(file);
  } catch (e) {
    throw new YoiError('YOI_ERR_SESSION_UNREADABLE', `cannot resume session ${file}: ${reasonOf(e)}`);
  }
  const id = path.basename(file, '.jsonl');
  if (state.sessionId !== id)
    throw new YoiError(
      'YOI_ERR_SESSION_UNREADABLE',
      `cannot resume session ${file}: it holds session ${state.sessionId}, which is not its name`,
    );
  const owner = state.start.pod_name;
  if (owner !== podName) {
    throw new YoiError(
      'YOI_ERR_SESSION_OTHER_POD',
      `session ${id} belongs to pod ${owner}, not ${podName} (start it with --name ${owner})`,
    );
  }
  const warnings =
    state.chain.status === 'broken'
      ? [`session ${id}'s hash chain is ${describeChain(state.chain)}; the log was changed after yoi wrote it`]
      : [];
  const notes = state.chain.status === 'unchained' ? [`session ${id} is ${describeChain(state.chain)}`] : [];
  return { state, warnings, notes };
}

function newestOwn(dir: string, podName: string): ResumeChoice {
  const listing = listSessionSummaries(dir);
  const mine = listing.sessions.filter((s) => s.pod === podName);
  const chained = mine.some((s) => s.chain !== 'unchained');
  const notes: string[] = [];
  let chosen: SessionState | undefined;
  for (const s of mine) {
    if (s.items === 0) continue; // started, never used: nothing to resume
    if (s.chain === 'unchained' && chained) {
      notes.push(
        `skipped ${s.file}: it has no hash chain while pod ${podName}'s sessions do, so yoi did not write it (resume it by its id if you trust it)`,
      );
      continue;
    }
    let state: SessionState;
    try {
      state = readSession(s.file);
    } catch (e) {
      notes.push(`skipped ${s.file}: ${reasonOf(e)}`);
      continue;
    }
    if (state.chain.status === 'broken') {
      notes.push(`skipped ${s.file}: its hash chain is ${describeChain(state.chain)}`);
      continue;
    }
    if (state.history.length === 0) continue;
    chosen = state;
    break;
  }
  // A file that is no session log at all may have been this pod's newest: name every one (what
  // it held, and so when and whose, cannot be told).
  for (const u of listing.unreadable) notes.push(`skipped ${u.file}: ${u.reason}`);
  if (!chosen) {
    const why = notes.length > 0 ? ` (${notes.length} skipped; ${notes[0]})` : '';
    throw new YoiError('YOI_ERR_SESSION_NOT_FOUND', `no session to resume for pod ${podName} in ${dir}${why}`);
  }
  const info =
    chosen.chain.status === 'unchained' ? [`session ${chosen.sessionId} is ${describeChain(chosen.chain)}`] : [];
  return { state: chosen, warnings: notes, notes: info };
}
