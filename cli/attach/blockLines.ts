import type { Segment } from '../../core/protocol/index.js';
import type { Block, BlockOf, NoteTone, ToolState } from './Block.js';
import { pasteLabel } from './pasteChip.js';
import { color, safeText, wrapLine } from './style.js';

/** Output lines shown under an expanded tool call. */
const MAX_TOOL_OUTPUT_LINES = 20;

const cache = new WeakMap<Block, { key: string; lines: string[] }>();
/** Replies whose wrapped lines are kept while they stream (only the newest one streams). */
const MAX_STREAMING = 4;
/** Wrapped lines of assistant blocks still streaming, by block id, reused line by line. */
const streaming = new Map<number, { width: number; src: string[]; out: string[][] }>();

/**
 * The screen lines of one transcript block at `width` columns (styled, already wrapped).
 * Blocks are immutable, so the result is cached per block object; a streaming assistant
 * block only re-wraps its last line.
 */
export function blockLines(block: Block, width: number, showTools: boolean): string[] {
  const key = `${width}|${showTools}`;
  const hit = cache.get(block);
  if (hit?.key === key) return hit.lines;
  const lines = render(block, Math.max(4, width), showTools);
  cache.set(block, { key, lines });
  return lines;
}

function render(block: Block, width: number, showTools: boolean): string[] {
  switch (block.kind) {
    case 'user':
      return ['', ...prefixed(block.segments ? segmentsText(block.segments) : safeText(block.text ?? ''), width, color.bold(color.cyan('❯ ')))];
    case 'assistant':
      return assistantLines(block, width);
    case 'tool':
      return toolLines(block, width, showTools);
    case 'context': {
      const [first, ...rest] = safeText(block.text).split('\n');
      return [oneLine(color.dim(`  · ${first}${rest.length > 0 ? ` (+${rest.length} lines)` : ''}`), width)];
    }
    case 'note':
      return wrapLine(NOTE_STYLE[block.tone](safeText(block.text)), width);
  }
}

const NOTE_STYLE: Record<NoteTone, (s: string) => string> = {
  alert: color.yellow,
  'alert-error': color.red,
  compact: color.blue,
  'compact-error': color.red,
  error: color.red,
  info: color.dim,
  stats: color.dim,
};

/** A user message as typed: text, paste chips, and `@path` `#slug` `/slug` references. */
export function segmentsText(segments: readonly Segment[]): string {
  return segments
    .map((s) => {
      switch (s.kind) {
        case 'text':
          return safeText(s.content);
        case 'paste':
          return color.magenta(pasteLabel(s));
        case 'file_ref':
          return color.cyan(`@${safeText(s.path)}`);
        case 'knowledge_ref':
          return color.yellow(`#${safeText(s.slug)}`);
        case 'workflow_invoke':
          return color.green(`/${safeText(s.slug)}`);
        default:
          return color.dim(`[unknown segment ${safeText(s.rawKind)}]`);
      }
    })
    .join('');
}

/** Wraps text line by line; the first screen line gets `first`, the others an indent as wide. */
function prefixed(text: string, width: number, first: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    for (const part of wrapLine(line, width - 2)) out.push((out.length === 0 ? first : '  ') + part);
  }
  return out;
}

function assistantLines(block: BlockOf<'assistant'>, width: number): string[] {
  const src = safeText(block.text).split('\n');
  let entry = streaming.get(block.id);
  if (!entry || entry.width !== width) entry = { width, src: [], out: [] };
  const out: string[][] = [];
  for (let i = 0; i < src.length; i++) {
    out.push(entry.src[i] === src[i] ? entry.out[i] : wrapLine(src[i], width - 2).map((l) => `  ${l}`));
  }
  streaming.delete(block.id);
  if (!block.done) {
    streaming.set(block.id, { width, src, out });
    // Older entries belong to replies a rebuild dropped or a failed run left open.
    for (const id of streaming.keys()) if (streaming.size > MAX_STREAMING) streaming.delete(id);
  }
  return ['', ...out.flat()];
}

const TOOL_ICON: Record<ToolState, string> = {
  pending: color.dim('…'),
  streaming: color.dim('…'),
  running: color.blue('⋯'),
  done: color.green('✓'),
  error: color.red('✗'),
  incomplete: color.yellow('∅'),
};

function toolLines(block: BlockOf<'tool'>, width: number, showTools: boolean): string[] {
  const args = safeText(block.args).replace(/\s*\n\s*/g, ' ');
  const result = block.summary !== undefined ? ` → ${safeText(block.summary).replace(/\n/g, ' ')}` : block.state === 'incomplete' ? ' (incomplete)' : '';
  const head = `  ${TOOL_ICON[block.state]} ${color.bold(safeText(block.name))} ${color.dim(args)}${block.state === 'error' ? color.red(result) : result}`;
  if (!showTools) return [oneLine(head, width)];
  const lines = [`  ${TOOL_ICON[block.state]} ${color.bold(safeText(block.name))}${block.state === 'error' ? color.red(result) : result}`];
  for (const l of prettyArgs(block.args).split('\n')) lines.push(...wrapLine(color.dim(`      ${safeText(l)}`), width));
  if (block.output !== undefined) {
    const out = safeText(block.output).split('\n');
    for (const l of out.slice(0, MAX_TOOL_OUTPUT_LINES)) lines.push(...wrapLine(`    │ ${l}`, width));
    if (out.length > MAX_TOOL_OUTPUT_LINES) lines.push(color.dim(`    │ … ${out.length - MAX_TOOL_OUTPUT_LINES} more lines`));
  }
  return lines;
}

function prettyArgs(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

/** The first screen line of `line`, with an ellipsis when it was cut. */
function oneLine(line: string, width: number): string {
  const parts = wrapLine(line, width - 1);
  return parts.length > 1 ? `${parts[0]}${color.dim('…')}` : parts[0];
}
