import { v7 as uuidv7 } from 'uuid';
import type { HistoryItem } from '../history/HistoryItem.js';
import type { ReportsSnapshot } from '../session/SessionEntry.js';
import { STOPPED_MID_CALL, closeOrphans } from '../controller/orphanToolCalls.js';
import { SessionLog } from '../session/SessionLog.js';
import { chooseResumeSession } from '../session/chooseResumeSession.js';
import { removeStaleCompactionTemps } from '../session/compactionTempFiles.js';
import { ensureSessionDir } from '../session/sessionFiles.js';

export interface OpenedSession {
  log: SessionLog;
  history: HistoryItem[];
  nextTurn: number;
  systemPrompt: string;
  /** Said once at start: what was restored, what was repaired. */
  notes: string[];
  /** The restored session's `plugin` entries, by plugin (empty for a new session). */
  plugins: ReadonlyMap<string, readonly unknown[]>;
  /** The reports the restored session applied, and their notes not yet read (none for a new session). */
  reports?: ReportsSnapshot;
  /** The notes that warn (logs passed over, a broken chain, lines skipped): worth an alert. */
  warnings: string[];
}

export interface OpenSessionOptions {
  dir: string;
  /** `true`: this pod's newest session; a string: that session id (or prefix); undefined: a new session. */
  resume?: string | true;
  podName: string;
  cwd: string;
  provider: string;
  model: string;
  systemPrompt: string;
}

/**
 * Starts a new session log, or restores one of this pod's (`--resume`, see chooseResumeSession).
 * A restored session keeps its system prompt (stable prompt prefix) and appends to the same file,
 * continuing its hash chain; tool calls left open by a crash are closed with a synthetic result,
 * and that closure is written to the log.
 */
export function openSession(opts: OpenSessionOptions): OpenedSession {
  ensureSessionDir(opts.dir);
  removeStaleCompactionTemps(opts.dir); // a compaction killed before its rename
  if (opts.resume === undefined) {
    const sessionId = uuidv7();
    const log = SessionLog.create(opts.dir, sessionId, {
      type: 'session_start',
      v: 1,
      ts: Date.now(),
      session_id: sessionId,
      pod_name: opts.podName,
      cwd: opts.cwd,
      provider: opts.provider,
      model: opts.model,
      system_prompt: opts.systemPrompt,
    });
    return {
      log,
      history: [],
      nextTurn: 0,
      systemPrompt: opts.systemPrompt,
      notes: [],
      warnings: [],
      plugins: new Map(),
    };
  }
  ensureSessionDir(opts.dir);
  const choice = chooseResumeSession(opts.dir, opts.podName, opts.resume);
  const { state } = choice;
  const log = SessionLog.open(state.file, state.sessionId, state.tail);
  const history = [...state.history];
  const warnings = [...choice.warnings];
  if (state.skippedLines > 0) {
    const utf8 = state.invalidUtf8Lines > 0 ? `, ${state.invalidUtf8Lines} of them not valid UTF-8` : '';
    warnings.push(`${state.skippedLines} unreadable line(s) in the session log were skipped${utf8}`);
  }
  const notes = [`resumed session ${state.sessionId} (${history.length} items)`, ...warnings, ...choice.notes];
  const closures = closeOrphans(history, STOPPED_MID_CALL);
  if (closures.length > 0) {
    history.push(...closures);
    log.append({ type: 'items', ts: Date.now(), source: 'interrupt', items: closures });
    notes.push(`${closures.length} tool call(s) left open by the last stop were closed`);
  }
  if (state.interrupted) {
    log.append({ type: 'run_end', ts: Date.now(), result: 'error', error: 'the pod stopped during this run' });
    log.sync();
  }
  return {
    log,
    history,
    nextTurn: state.nextTurn,
    systemPrompt: state.start.system_prompt,
    notes,
    warnings,
    plugins: state.plugins,
    reports: state.reports,
  };
}
