import { Command } from '@oclif/core';
import { cliErrorJson, formatCliError } from './formatCliError.js';

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

  /** Writes a line to stdout (oclif's `log` goes through a formatter we do not need). */
  protected print(text: string): void {
    process.stdout.write(`${text}\n`);
  }
}
