import { Command, type Interfaces } from '@oclif/core';
import { isYoiError, YoiError } from '../core/errors/YoiError.js';
import { cliErrorJson, formatCliError } from './formatCliError.js';
import { jsonForTerminal } from './jsonForTerminal.js';
import { safeText } from './safeText.js';

// oclif's own constraint (`FlagOutput`, `ArgOutput`), which it does not export.
type Output = { [name: string]: any };

/**
 * Base of every `yoi` command: errors (ours, oclif's flag parsing, anything thrown) end as one
 * line on stderr, `yoi: <message> [YOI_ERR_…]`, and a non-zero exit code (2 for usage errors);
 * with `--json`, as one JSON object on stdout instead. Set `YOI_DEBUG=1` to get the stack as well.
 */
export abstract class YoiCommand extends Command {
  protected override async catch(error: Error & { code?: unknown; oclif?: { exit?: number } }): Promise<void> {
    // this.exit(n) throws an ExitError: it is a way out, not a failure to report.
    if (error.code === 'EEXIT') throw error;
    // A failed parse leaves `parsed` false, and oclif would add a warning (outside production).
    this.parsed = true;
    const formatted = formatCliError(error, this.id);
    // `--json` (before a `--` that ends the flags): scripts read errors on stdout too.
    const flags = this.argv.includes('--') ? this.argv.slice(0, this.argv.indexOf('--')) : this.argv;
    if (flags.includes('--json')) process.stdout.write(`${cliErrorJson(formatted)}\n`);
    else process.stderr.write(`${formatted.line}\n`);
    if (process.env.YOI_DEBUG) process.stderr.write(`${error.stack ?? ''}\n`);
    process.exitCode = formatted.exitCode;
  }

  /**
   * Whatever oclif's parser throws is a usage error, also the plain errors it throws without
   * marking them as parse errors (`Flag --pod expects a value`, `Unexpected flag`).
   */
  protected override async parse<F extends Output, B extends Output, A extends Output>(
    options?: Interfaces.Input<F, B, A>,
    argv?: string[],
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    try {
      return await super.parse(options, argv);
    } catch (e) {
      if (isYoiError(e)) throw e;
      throw new YoiError('YOI_ERR_USAGE', e instanceof Error ? e.message : String(e), { cause: e });
    }
  }

  /**
   * Writes a line to stdout (oclif's `log` goes through a formatter we do not need). On a
   * terminal its control characters become U+FFFD: what commands print comes from pods, session
   * logs and runtime files (a title, the clipboard, a cleared screen are not theirs to set);
   * piped, it is written as it is.
   */
  protected print(text: string): void {
    process.stdout.write(`${process.stdout.isTTY ? safeText(text) : text}\n`);
  }

  /**
   * Writes `value` as JSON (indented by `indent`). On a terminal DEL and C1, which JSON.stringify
   * leaves as they are, are written as `\u` escapes: the same JSON, nothing for the terminal to act on.
   */
  protected printJson(value: unknown, indent = 2): void {
    const json = JSON.stringify(value, null, indent);
    process.stdout.write(`${process.stdout.isTTY ? jsonForTerminal(json) : json}\n`);
  }
}
