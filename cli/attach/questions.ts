import type { Question } from './AttachStore.js';
import type { Intent } from './keyIntent.js';
import { color } from './style.js';
import { safeText } from '../safeText.js';

export type Answer = 'yes' | 'alternative' | 'no' | 'pass';

/**
 * How a key answers the open question. Shutting the pod down: Ctrl-D again or `y` confirms.
 * Sending while paused: Enter again or `y` abandons the paused run and sends, `r` resumes it and
 * sends the input once it ends. `n`, Esc and Ctrl-C say no; any other key dismisses the
 * question and then does what it always does (`pass`).
 */
export function answerOf(question: Question, intent: Intent): Answer {
  const key = intent.type === 'insert' ? intent.text.toLowerCase() : undefined;
  if (intent.type === 'escape' || intent.type === 'interrupt' || key === 'n') return 'no';
  if (key === 'y') return 'yes';
  if (question.kind === 'shutdown') return intent.type === 'shutdown' ? 'yes' : 'pass';
  if (intent.type === 'submit') return 'yes';
  return key === 'r' ? 'alternative' : 'pass';
}

/** The hint line while a question is open. */
export function questionText(question: Question, podName: string): string {
  if (question.kind === 'shutdown') {
    return `${color.bold(color.red(`Shut down pod ${safeText(podName)}?`))} It stops for all clients (Ctrl-C twice only detaches) · press Ctrl-D again or y: shut down · n/Esc: keep it`;
  }
  return `${color.bold(color.magenta('Run paused.'))} Enter/y: abandon it and send this · r: resume it, send this after · n/Esc: keep editing`;
}
