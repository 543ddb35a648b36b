import type { Hook } from '@oclif/core';
import { editDistance } from '../../core/errors/closestMatch.js';
import { YoiError } from '../../core/errors/YoiError.js';

/**
 * oclif `init` hook: an unknown command, where nobody can answer @oclif/plugin-not-found's
 * "Did you mean …?" prompt (no terminal), ends as one usage line naming the closest command:
 * `yoi: unknown command "pod strat"; did you mean "pod start"? (see: yoi pod --help) [YOI_ERR_USAGE]`. On a terminal
 * the plugin asks, and runs the suggestion when the user says yes.
 */
const hook: Hook<'init'> = async function ({ id, config }) {
  if (!id || id.startsWith('-') || config.findCommand(id) || config.findTopic(id)) return;
  if (process.stdin.isTTY && process.stdout.isTTY) return;
  const human = (s: string) => s.replaceAll(':', ' ');
  const typed = id.split(':');
  const best = closestCommand(
    typed,
    config.commands.filter((c) => !c.hidden).map((c) => c.id),
  );
  const help = config.findTopic(typed[0]) ? `yoi ${typed[0]} --help` : 'yoi --help';
  throw Object.assign(
    new YoiError(
      'YOI_ERR_USAGE',
      `unknown command "${human(id)}"${best ? `; did you mean "${human(best)}"?` : ''} (see: ${help})`,
    ),
    {
      oclif: { exit: 2 },
    },
  );
};

/** The command within two edits of what was typed, each compared with as many words as it has (`sedn x` → `send`). */
function closestCommand(typed: string[], ids: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const id of ids) {
    const words = id.split(':');
    const d = editDistance(typed.slice(0, words.length).join(' ').toLowerCase(), words.join(' '));
    if (d < bestDistance) [best, bestDistance] = [id, d];
  }
  return best;
}

export default hook;
