import type { AttachState } from './AttachStore.js';
import { questionText } from './questions.js';
import { segmentsText } from './segmentText.js';
import { color } from './style.js';
import { safeText } from '../safeText.js';
import { formatTokens } from './transcriptReducer.js';

const STATE_COLOR = {
  idle: color.green,
  running: color.yellow,
  paused: color.magenta,
  compacting: color.blue,
} as const;

/**
 * The status bar: pod name, state (idle / running / paused / compacting, or the connection
 * state when not connected), session id, tokens (↑ context size of the latest request,
 * ↓ output of the current run), queued inputs, and whether the view is scrolled.
 */
export function statusLine(state: AttachState, podName: string): string {
  const t = state.transcript;
  const connected = state.connection === 'connected';
  const status =
    connected && t.status
      ? STATE_COLOR[t.status](t.status)
      : color.yellow(state.connection === 'reconnecting' ? 'reconnecting…' : 'connecting…');
  const parts = [
    `${color.bold(safeText(t.podName ?? podName))}`,
    status,
    `session ${t.sessionId ? t.sessionId.slice(0, 8) : '?'}`,
    `tokens ↑${formatTokens(t.usage.context)} ↓${formatTokens(t.usage.output)}`,
  ];
  if (state.queue.length > 0) parts.push(color.yellow(`${state.queue.length} queued`));
  if (state.scroll !== 'follow') parts.push(color.cyan('↑ scrolled (Ctrl-End: latest)'));
  return `● ${parts.join(color.dim(' │ '))}`;
}

/**
 * The line under the input: the open question, else completion candidates, else the latest
 * notice, else what Enter does while paused, else a reminder of the keys.
 */
export function hintLine(state: AttachState, podName = state.transcript.podName ?? 'the pod'): string {
  if (state.question) return questionText(state.question, state.transcript.podName ?? podName);
  const c = state.completion;
  if (c && c.items.length > 0) {
    const sigil = c.sigil;
    const shown = c.items
      .slice(0, 12)
      .map((item, i) => (i === c.selected ? color.inverse(`${sigil}${safeText(item)}`) : `${sigil}${safeText(item)}`));
    return `${color.dim('Tab:')} ${shown.join('  ')}${c.items.length > 12 ? color.dim(`  +${c.items.length - 12}`) : ''}`;
  }
  if (state.notice) return color.yellow(state.notice);
  if (state.transcript.status === 'paused')
    return color.magenta(
      'paused — Enter on an empty line resumes · Ctrl-X cancels · a new message asks before abandoning the run',
    );
  return color.dim(
    'Ctrl-C pause/quit · Ctrl-X cancel · Ctrl-D stop pod · ↑↓ history · PgUp/PgDn scroll · Ctrl-O details',
  );
}

/** Lines for inputs waiting to be sent, shown at the end of the transcript. */
export function queuedLines(state: AttachState): string[] {
  return state.queue.map(
    (segments) => color.dim(`⧗ queued: `) + segmentsText(segments, state.transcript.kinds).split('\n')[0],
  );
}
