import type { Decision } from '../../plugins/permissions/permissionsConfig.js';
import type { PermissionRequest } from '../../plugins/permissions/permissionWire.js';
import { timeLeft } from '../permissionLines.js';
import type { Intent } from './keyIntent.js';
import { color } from './style.js';
import { safeText } from '../safeText.js';

/** The single keys of the modal: a letter per decision (as Codex has them) and the option's number. */
const LETTERS: Record<Decision, string> = { allow_once: 'y', allow_always: 'a', reject_once: 'n', reject_always: 'N' };
const LABELS: Record<Decision, string> = {
  allow_once: 'allow once',
  allow_always: 'always allow calls like it',
  reject_once: 'reject',
  reject_always: 'always reject calls like it',
};
/** Argument lines the modal shows at most (the rest is counted). */
const MAX_ARG_LINES = 8;

/**
 * What a key does while an ask is on screen: a decision among the ask's options, `'block'`
 * for a key the modal swallows (typing must not leak into the input behind it), or undefined
 * for keys that keep their meaning (Ctrl-C pauses the run — which rejects the ask —, scrolling,
 * Ctrl-O details, Ctrl-D shutdown).
 */
export function modalKey(request: PermissionRequest, intent: Intent): Decision | 'block' | undefined {
  if (intent.type === 'insert') {
    const text = intent.text;
    const byNumber = /^[1-9]$/.test(text) ? request.options[Number(text) - 1] : undefined;
    const byLetter = request.options.find((d) => LETTERS[d] === text);
    return byNumber ?? byLetter ?? 'block';
  }
  if (
    intent.type === 'interrupt' ||
    intent.type === 'scroll' ||
    intent.type === 'toggle-tools' ||
    intent.type === 'shutdown' ||
    intent.type === 'cancel'
  )
    return undefined;
  return 'block';
}

/**
 * The modal's lines: who asks for what, the call's arguments, the options with their keys and
 * the countdown to the default decision. `more` asks wait behind this one.
 */
export function modalLines(
  request: PermissionRequest,
  opts: { now: number; width: number; podName: string; more: number },
): string[] {
  const from = request.pod === opts.podName ? '' : ` ${color.dim('from pod')} ${color.bold(safeText(request.pod))}`;
  const head = `${color.bold(color.yellow('Permission needed'))}${from} ${color.dim(`· ${request.id}`)}`;
  const args = argumentLines(request.args, opts.width - 4);
  const options = request.options.map((d, i) => `${color.bold(`${i + 1}/${LETTERS[d]}`)} ${LABELS[d]}`).join('   ');
  const left = timeLeft(request.expires_at - opts.now);
  const countdown = `${color.dim(`${request.default.replace('_', ' ')} in`)} ${color.bold(left)}${opts.more > 0 ? color.dim(` · ${opts.more} more waiting`) : ''}`;
  const rule = color.yellow('─'.repeat(Math.max(10, opts.width)));
  return [
    rule,
    head,
    `  ${color.bold(safeText(oneLine(request.summary)))}`,
    ...args.map((l) => `  ${color.dim(l)}`),
    `  ${options}`,
    `  ${countdown}`,
    rule,
  ];
}

function argumentLines(args: unknown, width: number): string[] {
  let text: string;
  try {
    text = JSON.stringify(args, null, 2) ?? 'undefined';
  } catch {
    text = String(args);
  }
  const lines = safeText(text)
    .split('\n')
    .map((l) => (l.length > width ? `${l.slice(0, Math.max(1, width - 1))}…` : l));
  if (lines.length <= MAX_ARG_LINES) return lines;
  return [...lines.slice(0, MAX_ARG_LINES - 1), `… ${lines.length - MAX_ARG_LINES + 1} more lines`];
}

function oneLine(text: string): string {
  return text.split('\n')[0];
}
