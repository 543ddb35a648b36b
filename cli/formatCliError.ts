/**
 * One line for any error reaching the command line: the message's first line, with oclif's
 * "See more help with --help" turned into a pointer at the right command. No stack trace.
 * Returns the exit code too: 2 for usage errors (bad flags or arguments), else 1.
 */
export function formatCliError(error: unknown, commandId?: string): { line: string; exitCode: number } {
  const err = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as {
    message?: unknown; parse?: unknown; oclif?: { exit?: number }; code?: unknown;
  };
  const lines = String(err.message ?? error).split('\n').map((l) => l.trim()).filter(Boolean);
  const usage = err.parse !== undefined || err.code === 'YOI_ERR_USAGE';
  const seeHelp = lines.some((l) => /^See more help with --help$/.test(l));
  let text = lines.filter((l) => !/^See more help with --help$/.test(l)).join('; ') || 'unknown error';
  let hint = seeHelp ? ` (see: yoi ${commandId ? `${commandId.replaceAll(':', ' ')} ` : ''}--help)` : '';
  // oclif names commands by id (`pod:start`); users type them with spaces.
  const unknown = /^command (\S+) not found$/.exec(text);
  if (unknown) [text, hint] = [`unknown command "${unknown[1].replaceAll(':', ' ')}"`, ' (see: yoi --help)'];
  const exitCode = usage ? 2 : typeof err.oclif?.exit === 'number' && err.oclif.exit > 0 ? err.oclif.exit : 1;
  return { line: `yoi: ${text.replace(/^Error: /, '')}${hint}`, exitCode };
}
