import { z } from 'zod';
import { cutLine, OutputWindow, rgText, type RgText } from './grep/GrepOutput.js';
import { runRipgrep } from './grep/runRipgrep.js';
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
  output_mode: z.enum(['files_with_matches', 'content', 'count']).default('files_with_matches')
    .describe('files_with_matches: matching file paths; content: matching lines; count: matches per file.'),
  '-n': z.boolean().default(true).describe('content mode: show line numbers.'),
  '-i': z.boolean().default(false).describe('Case-insensitive search.'),
  '-A': z.int().min(0).optional().describe('content mode: lines of context after each match.'),
  '-B': z.int().min(0).optional().describe('content mode: lines of context before each match.'),
  '-C': z.int().min(0).optional().describe('content mode: lines of context around each match (overrides -A/-B).'),
  multiline: z.boolean().default(false).describe('Let patterns span lines (`.` matches newlines too).'),
  head_limit: z.int().min(1).default(DEFAULT_HEAD_LIMIT).describe(`Most entries to return (default ${DEFAULT_HEAD_LIMIT}).`),
  offset: z.int().min(0).default(0).describe('Entries to skip first (to page through long results).'),
});
type GrepInput = z.infer<typeof GrepInputSchema>;

/**
 * `Grep`: ripgrep over the pod's scope. Hidden files are skipped, ignore files honoured,
 * symlinks not followed, binary files skipped; results are sorted by path and only files the
 * pod may read are reported. Content lines are `path:N:text` (matches) and `path-N-text`
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
  const scope = ctx.services.scope;
  const readable = new Map<string, boolean>();
  const canRead = (file: string) => {
    let ok = readable.get(file);
    if (ok === undefined) readable.set(file, (ok = scope.canRead(file)));
    return ok;
  };
  const args = ['--no-config', '--color=never', '--no-messages', '--sort=path'];
  if (input['-i']) args.push('--ignore-case');
  if (input.multiline) args.push('--multiline', '--multiline-dotall');
  if (input.glob) args.push('--glob', input.glob);
  if (input.type) args.push('--type', input.type);
  const window = new OutputWindow(input.offset, input.head_limit);
  const stopped = (complete: boolean) => (complete ? '' : ' (the search was stopped early: its output was too large; narrow it)');

  if (input.output_mode === 'files_with_matches') {
    args.push('--files-with-matches', '--null');
    const run = await runRipgrep([...args, `--regexp=${input.pattern}`, '--', base], ctx.signal, (file) => {
      if (file !== '' && canRead(file)) window.add(file);
    }, '\0');
    if (window.total === 0) return { summary: 'No files matched' };
    return { summary: `Found matches in ${count(window.total, 'file')}${window.note('files')}${stopped(run.complete)}`, content: window.kept.join('\n') };
  }

  if (input.output_mode === 'count') {
    args.push('--count', '--with-filename', '--null');
    let matches = 0;
    const run = await runRipgrep([...args, `--regexp=${input.pattern}`, '--', base], ctx.signal, (line) => {
      const cut = line.lastIndexOf('\0');
      const file = line.slice(0, cut);
      if (cut < 0 || !canRead(file)) return;
      matches += Number(line.slice(cut + 1));
      window.add(`${file}:${line.slice(cut + 1)}`);
    });
    if (window.total === 0) return { summary: 'No matches' };
    return { summary: `${count(matches, 'matching line')} in ${count(window.total, 'file')}${window.note('files')}${stopped(run.complete)}`, content: window.kept.join('\n') };
  }

  if (input['-C'] !== undefined) args.push(`--context=${input['-C']}`);
  else {
    if (input['-A'] !== undefined) args.push(`--after-context=${input['-A']}`);
    if (input['-B'] !== undefined) args.push(`--before-context=${input['-B']}`);
  }
  const withContext = input['-C'] !== undefined || input['-A'] !== undefined || input['-B'] !== undefined;
  const files = new Set<string>();
  let matchLines = 0;
  let last: { file: string; line: number } | undefined;
  const run = await runRipgrep(['--json', ...args, `--regexp=${input.pattern}`, '--', base], ctx.signal, (json) => {
    let msg: { type: string; data: { path?: RgText; lines?: RgText; line_number?: number } };
    try {
      msg = JSON.parse(json);
    } catch {
      return;
    }
    if (msg.type !== 'match' && msg.type !== 'context') return;
    const file = rgText(msg.data.path);
    if (!canRead(file)) return;
    const first = msg.data.line_number ?? 0;
    if (withContext && last && (last.file !== file || first !== last.line + 1)) window.separate();
    const lines = rgText(msg.data.lines).replace(/\r?\n$/, '').split('\n');
    const sep = msg.type === 'match' ? ':' : '-';
    lines.forEach((text, i) => {
      const at = input['-n'] && first ? `${first + i}${sep}` : '';
      window.add(`${file}${sep}${at}${cutLine(text.replace(/\r$/, ''))}`);
    });
    if (msg.type === 'match') {
      files.add(file);
      matchLines += lines.length;
    }
    last = { file, line: first + lines.length - 1 };
  });
  if (matchLines === 0) return { summary: 'No matches' };
  return {
    summary: `Found matches in ${count(files.size, 'file')}, ${count(matchLines, 'matching line')}${window.note('lines')}${stopped(run.complete)}`,
    content: window.kept.join('\n'),
  };
}
