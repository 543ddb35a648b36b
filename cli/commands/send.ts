import { isUtf8 } from 'node:buffer';
import { Args, Flags } from '@oclif/core';
import { YoiCommand } from '../YoiCommand.js';
import { configFlags, jsonFlag, podFlags } from '../flags.js';

export default class Send extends YoiCommand {
  static override summary = 'Send input to a pod and stream what it does.';
  static override description = [
    'Text arguments become a text segment; --file, --knowledge, --workflow and --segment add @path, #slug, /slug and any other segment, in command-line order (each flag takes one value: repeat it); piped stdin becomes a paste segment.',
    'The reply streams to stdout with each turn, tool call, notification and compaction on its own line and the usage at the end (colours and a spinner on a terminal, plain text when piped); alerts go to stderr. --quiet prints the reply only, --json every event as NDJSON.',
    'Exits non-zero if the run fails, is cancelled or is paused by another client. Ctrl-C cancels the run.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> send --file src/math.ts "explain this"',
    'git diff | <%= config.bin %> send "review this diff"',
    `<%= config.bin %> send "what is left?" --segment '{"kind":"ticket_ref","id":"T-12"}'`,
  ];
  static override strict = false;
  // Piped stdin is read below, as a paste after the message: oclif would otherwise take it as the
  // text when none is given, and the command then found nothing to send.
  static override args = { text: Args.string({ description: 'text of the message', ignoreStdin: true }) };
  static override flags = {
    ...configFlags,
    ...podFlags,
    ...jsonFlag,
    file: Flags.string({
      description: 'add an @path reference (repeat the flag for more)',
      helpValue: 'PATH',
      multiple: true,
      multipleNonGreedy: true,
    }),
    knowledge: Flags.string({
      description: 'add a #slug knowledge reference (repeat the flag for more)',
      helpValue: 'SLUG',
      multiple: true,
      multipleNonGreedy: true,
    }),
    workflow: Flags.string({ description: 'invoke /slug for this run', helpValue: 'SLUG' }),
    segment: Flags.string({
      description: 'add a segment of any kind, as a JSON object with a string "kind" (repeatable)',
      helpValue: 'JSON',
      multiple: true,
      multipleNonGreedy: true,
    }),
    quiet: Flags.boolean({
      char: 'q',
      description: 'print the reply only (no tool calls, notes or usage)',
      exclusive: ['json'],
    }),
  };

  async run(): Promise<void> {
    const { argv, flags, raw } = await this.parse(Send);
    const [{ commandLineTokens }, { commandLineSegments }, { runSend }, { YoiError }] = await Promise.all([
      import('../send/commandLineTokens.js'),
      import('../send/commandLineSegments.js'),
      import('../send/runSend.js'),
      import('../../core/errors/YoiError.js'),
    ]);
    const tokens = commandLineTokens(raw);
    const stdin = process.stdin.isTTY ? undefined : await readStdin();
    const input = commandLineSegments(tokens, stdin);
    // `yoi send ""` (or only blanks) would start a turn with nothing in it.
    if (input.every((s) => (s.kind === 'text' || s.kind === 'paste') && s.content.trim() === ''))
      throw new YoiError(
        'YOI_ERR_USAGE',
        'nothing to send: give text, pipe stdin, or use --file/--knowledge/--workflow/--segment',
      );
    // The message must never be lost to a flag (a greedy --file once took it as a second path).
    if (argv.length > 0 && !input.some((s) => s.kind === 'text')) {
      throw new YoiError(
        'YOI_ERR_USAGE',
        'the message text did not make it into the input; put it before the flags or after --',
      );
    }
    await runSend({ flags, input });
  }
}

/**
 * Piped stdin as text, up to what a pod takes in one line (limits.maxLineBytes' default, 16 MiB).
 * Bytes that are not UTF-8, or a NUL anywhere (what `@file` takes for a binary file), are refused
 * rather than sent as replacement characters the model cannot read.
 */
async function readStdin(): Promise<string> {
  const [{ DEFAULT_MAX_LINE_BYTES }, { YoiError }] = await Promise.all([
    import('../../core/protocol/index.js'),
    import('../../core/errors/YoiError.js'),
  ]);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > DEFAULT_MAX_LINE_BYTES)
      throw new YoiError(
        'YOI_ERR_USAGE',
        `piped stdin is over ${DEFAULT_MAX_LINE_BYTES / 2 ** 20} MiB, more than a pod takes in one message`,
      );
    chunks.push(chunk as Buffer);
  }
  const bytes = Buffer.concat(chunks);
  const why = bytes.includes(0) ? 'it holds a NUL byte' : isUtf8(bytes) ? undefined : 'it is not UTF-8';
  if (why) throw new YoiError('YOI_ERR_USAGE', `piped stdin is not text (${why}); nothing was sent`);
  return bytes.toString('utf8');
}
