import { z } from 'zod';
import { cutLine, OutputWindow, rgText, type RgText } from './grep/GrepOutput.js';
import { searchVerified, type SearchOutcome } from './grep/searchVerified.js';
import { resolveToolPath } from './shared/resolveToolPath.js';
import { count } from './shared/count.js';
import { definePlugin, refusalsAsResults, type Tool, type ToolContext, type ToolOutput } from '../../core/api.js';

export const GREP = 'yoi:grep';
export const DEFAULT_HEAD_LIMIT = 250;

export const GrepInputSchema = z.object({
  pattern: z.string().min(1).describe('Regular expression to search for (ripgrep syntax).'),
  path: z.string().min(1).optional().describe('File or directory to search (default: the working directory).'),
  glob: z.string().min(1).optional().describe('Only search files matching this glob, e.g. "*.ts" or "*.{ts,tsx}".'),
  type: z.string().min(1).optional().describe('Only search files of this ripgrep type, e.g. "js", "py", "rust".'),
  output_mode: z
    .enum(['files_with_matches', 'content', 'count'])
    .default('files_with_matches')
    .describe('files_with_matches: matching file paths; content: matching lines; count: matches per file.'),
  '-n': z.boolean().default(true).describe('content mode: show line numbers.'),
  '-i': z.boolean().default(false).describe('Case-insensitive search.'),
  '-A': z.int().min(0).optional().describe('content mode: lines of context after each match.'),
  '-B': z.int().min(0).optional().describe('content mode: lines of context before each match.'),
  '-C': z.int().min(0).optional().describe('content mode: lines of context around each match (overrides -A/-B).'),
  multiline: z.boolean().default(false).describe('Let patterns span lines (`.` matches newlines too).'),
  head_limit: z
    .int()
    .min(1)
    .default(DEFAULT_HEAD_LIMIT)
    .describe(`Most entries to return (default ${DEFAULT_HEAD_LIMIT}).`),
  offset: z.int().min(0).default(0).describe('Entries to skip first (to page through long results).'),
});
type GrepInput = z.infer<typeof GrepInputSchema>;

/**
 * `Grep`: ripgrep over the pod's scope. Hidden files are skipped, ignore files honoured,
 * symlinks not followed, binary files, FIFOs, sockets and devices (said in the summary) and
 * atomic writes' temp files skipped; results are sorted by path, and only files the pod may
 * read, opened and verified by the pod, are searched (`searchVerified`). Content lines are `path:N:text` (matches) and `path-N-text`
 * (context), as ripgrep prints them.
 */
export const grepTool = definePlugin({
  name: GREP,
  apply(api) {
    api.hooks.tools.for('Grep').tap(GREP, (): Tool<GrepInput> => ({
      name: 'Grep',
      description:
        'Searches file contents with a regular expression (ripgrep) under a file or directory (default: the working directory). ' +
        'output_mode files_with_matches (default) lists files, content shows matching lines (with -n, -A/-B/-C context), ' +
        `count gives matches per file. Filter with glob or type; page with head_limit (default ${DEFAULT_HEAD_LIMIT}) and offset.`,
      input: GrepInputSchema,
      execute: (input, ctx) => refusalsAsResults(() => grep(input, ctx)),
    }));
  },
});

async function grep(input: GrepInput, ctx: ToolContext): Promise<ToolOutput> {
  const base = resolveToolPath(ctx, input.path ?? ctx.cwd, 'read');
  const env = { scope: ctx.services.scope, signal: ctx.signal };
  const listArgs: string[] = [];
  if (input.glob) listArgs.push('--glob', input.glob);
  if (input.type) listArgs.push('--type', input.type);
  const flags: string[] = [];
  if (input['-i']) flags.push('--ignore-case');
  if (input.multiline) flags.push('--multiline', '--multiline-dotall');
  const regexp = `--regexp=${input.pattern}`;
  const window = new OutputWindow(input.offset, input.head_limit);
  const notes = (run: SearchOutcome) =>
    `${skippedNote(run.skipped)}${ignoreNote(run.ignoreSkipped)}${run.complete ? '' : ' (the search was stopped early: its output was too large; narrow it)'}`;

  if (input.output_mode === 'files_with_matches') {
    const run = await searchVerified(
      {
        base,
        listArgs,
        searchArgs: ['--files-with-matches', '--null', ...flags, regexp],
        separator: '\0',
        fileOf: (line) => line,
      },
      env,
      (file) => window.add(file),
    );
    if (window.total === 0) return { summary: `No files matched${notes(run)}` };
    return {
      summary: `Found matches in ${count(window.total, 'file')}${window.note('files')}${notes(run)}`,
      content: window.kept.join('\n'),
    };
  }

  if (input.output_mode === 'count') {
    let matches = 0;
    const run = await searchVerified(
      {
        base,
        listArgs,
        searchArgs: ['--count', '--with-filename', '--null', ...flags, regexp],
        separator: '\n',
        fileOf: (line) => line.slice(0, line.lastIndexOf('\0')),
      },
      env,
      (file, [line]) => {
        const n = line.slice(line.lastIndexOf('\0') + 1);
        matches += Number(n);
        window.add(`${file}:${n}`);
      },
    );
    if (window.total === 0) return { summary: `No matches${notes(run)}` };
    return {
      summary: `${count(matches, 'matching line')} in ${count(window.total, 'file')}${window.note('files')}${notes(run)}`,
      content: window.kept.join('\n'),
    };
  }

  const context: string[] = [];
  if (input['-C'] !== undefined) context.push(`--context=${input['-C']}`);
  else {
    if (input['-A'] !== undefined) context.push(`--after-context=${input['-A']}`);
    if (input['-B'] !== undefined) context.push(`--before-context=${input['-B']}`);
  }
  const files = new Set<string>();
  let matchLines = 0;
  let last: { file: string; line: number } | undefined;
  const run = await searchVerified(
    {
      base,
      listArgs,
      searchArgs: ['--json', ...flags, ...context, regexp],
      separator: '\n',
      fileOf: (line) => parseRg(line)?.data.path?.text,
    },
    env,
    (file, lines) => {
      const messages = lines.map(parseRg).filter((m): m is RgMessage => m !== undefined);
      // A NUL further in than the 8 KiB sniffed: binary after all, skipped like the others.
      if (messages.some((m) => m.type === 'end' && m.data.binary_offset != null)) return;
      for (const msg of messages) {
        if (msg.type !== 'match' && msg.type !== 'context') continue;
        const first = msg.data.line_number ?? 0;
        if (context.length > 0 && last && (last.file !== file || first !== last.line + 1)) window.separate();
        const text = rgText(msg.data.lines)
          .replace(/\r?\n$/, '')
          .split('\n');
        const sep = msg.type === 'match' ? ':' : '-';
        text.forEach((t, i) => {
          const at = input['-n'] && first ? `${first + i}${sep}` : '';
          window.add(`${file}${sep}${at}${cutLine(t.replace(/\r$/, ''))}`);
        });
        if (msg.type === 'match') {
          files.add(file);
          matchLines += text.length;
        }
        last = { file, line: first + text.length - 1 };
      }
    },
  );
  if (matchLines === 0) return { summary: `No matches${notes(run)}` };
  return {
    summary: `Found matches in ${count(files.size, 'file')}, ${count(matchLines, 'matching line')}${window.note('lines')}${notes(run)}`,
    content: window.kept.join('\n'),
  };
}

/** One line of ripgrep's `--json` output (the fields used here). */
interface RgMessage {
  type: string;
  data: { path?: RgText; lines?: RgText; line_number?: number; binary_offset?: number | null };
}

function parseRg(line: string): RgMessage | undefined {
  try {
    const msg = JSON.parse(line) as RgMessage;
    return typeof msg === 'object' && msg !== null && typeof msg.data === 'object' && msg.data !== null
      ? msg
      : undefined;
  } catch {
    return undefined;
  }
}

/** ` (ignore files not applied: .ignore (a symlink))`: the files listed may include what they would leave out. */
function ignoreNote(skipped: readonly string[]): string {
  if (skipped.length === 0) return '';
  return ` (ignore files not applied: ${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ', …' : ''})`;
}

/** ` (skipped 2 files that are not regular files: a, b)`: FIFOs, sockets, devices; never opened. */
function skippedNote(skipped: readonly string[]): string {
  if (skipped.length === 0) return '';
  const shown = skipped.slice(0, 3).join(', ') + (skipped.length > 3 ? ', …' : '');
  return ` (skipped ${count(skipped.length, 'file')} that ${skipped.length === 1 ? 'is not a regular file' : 'are not regular files'}: ${shown})`;
}
