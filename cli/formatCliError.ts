import { safeLine } from './safeText.js';

export interface CliError {
  /** `yoi: <message>[ (see: …)] [<code>]`, one line. */
  line: string;
  exitCode: number;
  /** The `YOI_ERR_*` code, when the error has one (usage errors always do). */
  code?: string;
  /** The pod's own error code (`not_running`, `already_running` …) of a refused request. */
  podCode?: string;
  /** The message alone, for `--json` (no `yoi: ` prefix, no code). */
  message: string;
}

/**
 * One line for any error reaching the command line: the message's first line, with oclif's
 * "See more help with --help" turned into a pointer at the right command, and the error's
 * `YOI_ERR_*` code (and the pod's code for a refused request) at the end. No stack trace.
 * Control characters become U+FFFD: a provider's error body or a pod's refusal is not ours to
 * let drive the terminal (a title, the clipboard).
 * Exit code 2 for usage errors (bad flags or arguments), else 1.
 */
export function formatCliError(error: unknown, commandId?: string): CliError {
  const err = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as {
    message?: unknown;
    parse?: unknown;
    oclif?: { exit?: number };
    code?: unknown;
    podCode?: unknown;
  };
  const lines = String(err.message ?? error)
    .split('\n')
    .map((l) => safeLine(l.trim()))
    .filter(Boolean);
  const ours = typeof err.code === 'string' && err.code.startsWith('YOI_ERR_') ? err.code : undefined;
  const seeHelp = lines.some((l) => /^See more help with --help$/.test(l));
  let text = lines.filter((l) => !/^See more help with --help$/.test(l)).join('; ') || 'unknown error';
  let hint = seeHelp ? ` (see: yoi ${commandId ? `${commandId.replaceAll(':', ' ')} ` : ''}--help)` : '';
  // oclif names commands by id (`pod:start`); users type them with spaces.
  const unknown = /^command (\S+) not found$/.exec(text);
  if (unknown) [text, hint] = [`unknown command "${unknown[1].replaceAll(':', ' ')}"`, ' (see: yoi --help)'];
  const usage = err.parse !== undefined || ours === 'YOI_ERR_USAGE' || unknown !== null;
  const code = ours ?? (usage ? 'YOI_ERR_USAGE' : undefined);
  const podCode = typeof err.podCode === 'string' ? err.podCode : undefined;
  if (podCode && text.startsWith(`${podCode}: `)) text = text.slice(podCode.length + 2);
  text = text.replace(/^Error: /, '');
  const exitCode = usage ? 2 : typeof err.oclif?.exit === 'number' && err.oclif.exit > 0 ? err.oclif.exit : 1;
  const tag = code ? ` [${code}${podCode ? ` ${podCode}` : ''}]` : '';
  return {
    line: `yoi: ${text}${hint}${tag}`,
    exitCode,
    message: `${text}${hint}`,
    ...(code ? { code } : {}),
    ...(podCode ? { podCode } : {}),
  };
}

/** The error as `--json` prints it on stdout: `{"error":{"code","message","pod_code"?}}`. */
export function cliErrorJson(e: CliError): string {
  return JSON.stringify({
    error: {
      code: e.code ?? null,
      message: e.message,
      ...(e.podCode ? { pod_code: e.podCode } : {}),
      exit_code: e.exitCode,
    },
  });
}
