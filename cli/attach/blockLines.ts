import type { Block, BlockOf, NoteTone, ToolState } from './Block.js';
import { markdownLines, markdownLoaded } from './markdownLines.js';
import type { SegmentKinds } from './SegmentKinds.js';
import { segmentsText } from './segmentText.js';
import { omittedLines } from './shownText.js';
import { shownSegments } from './shownSegments.js';
import { color, wrapLine } from './style.js';
import { safeText } from '../safeText.js';

/** Output lines shown under an expanded tool call. */
const MAX_TOOL_OUTPUT_LINES = 20;
/** Screen lines of a collapsed tool call, notification or context line (then `…`). */
const MAX_COLLAPSED_LINES = 4;
/** Lines of an expanded notification or context item. */
const MAX_DETAIL_LINES = 40;

const cache = new WeakMap<Block, { key: string; lines: string[] }>();
const kindsIds = new WeakMap<SegmentKinds, number>();
let nextKindsId = 1;

/**
 * The screen lines of one transcript block at `width` columns (styled, already wrapped).
 * Blocks are immutable, so the result is cached per block object; a streaming reply renders
 * only its last markdown block again (see markdownLines). `details` expands tool calls,
 * notifications and context items.
 */
export function blockLines(block: Block, width: number, details: boolean, kinds: SegmentKinds): string[] {
  let kindsId = kindsIds.get(kinds);
  if (kindsId === undefined) kindsIds.set(kinds, (kindsId = nextKindsId++));
  const key = `${width}|${details}|${kindsId}|${markdownLoaded()}`;
  const hit = cache.get(block);
  if (hit?.key === key) return hit.lines;
  const lines = render(block, Math.max(8, width), details, kinds);
  cache.set(block, { key, lines });
  return lines;
}

function render(block: Block, width: number, details: boolean, kinds: SegmentKinds): string[] {
  switch (block.kind) {
    case 'user': {
      const { segments, omitted } = shownSegments(block.segments ?? [{ kind: 'text', content: block.text ?? '' }]);
      return [
        '',
        ...prefixed(segmentsText(segments, kinds), width, color.bold(color.cyan('❯ '))),
        ...(omitted > 0 ? omittedLines(omitted, width) : []),
      ];
    }
    case 'assistant':
      return ['', ...markdownLines(block.id, block.text, block.done, width)];
    case 'tool':
      return toolLines(block, width, details);
    case 'context':
      return foldable(color.dim('  · '), block.text, width, details, color.dim);
    case 'notification':
      return foldable(
        color.magenta('  ◆ '),
        `${block.source === 'pod_event' ? 'child pod' : 'notification'}: ${block.text}`,
        width,
        details,
        (s) => s,
      );
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

/** Wraps text line by line; the first screen line gets `first`, the others an indent as wide. */
function prefixed(text: string, width: number, first: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    for (const part of wrapLine(line, width - 2)) out.push((out.length === 0 ? first : '  ') + part);
  }
  return out;
}

/**
 * A multi-line item shown as its first line (wrapped, at most a few screen lines, with how many
 * lines follow) or, expanded, in full under a gutter.
 */
function foldable(mark: string, text: string, width: number, details: boolean, style: (s: string) => string): string[] {
  const [first, ...rest] = safeText(text).replace(/\n+$/u, '').split('\n');
  if (!details || rest.length === 0) {
    const more =
      rest.length > 0 ? color.dim(` (+${rest.length} ${rest.length === 1 ? 'line' : 'lines'}, Ctrl-O shows them)`) : '';
    return capped(
      wrapLine(`${mark}${style(clip(first, width))}${more}`, width - 4).map((l, i) => (i === 0 ? l : `    ${l}`)),
      width,
    );
  }
  const lines = wrapLine(`${mark}${style(first)}`, width);
  for (const l of rest.slice(0, MAX_DETAIL_LINES))
    lines.push(...wrapLine(`    ${style(`│ ${clip(l, width * MAX_DETAIL_LINES)}`)}`, width));
  if (rest.length > MAX_DETAIL_LINES) lines.push(color.dim(`    │ … ${rest.length - MAX_DETAIL_LINES} more lines`));
  return lines;
}

const TOOL_ICON: Record<ToolState, string> = {
  pending: color.dim('…'),
  streaming: color.dim('…'),
  running: color.blue('⋯'),
  done: color.green('✓'),
  error: color.red('✗'),
  incomplete: color.yellow('∅'),
};

function toolLines(block: BlockOf<'tool'>, width: number, details: boolean): string[] {
  const name = safeText(block.name);
  const result =
    block.summary !== undefined
      ? ` → ${clip(safeText(block.summary).replace(/\n/g, ' '), width)}`
      : block.state === 'incomplete'
        ? ' (incomplete)'
        : '';
  const styledResult = block.state === 'error' ? color.red(result) : result;
  if (!details) {
    // Long calls wrap (indented under the name) instead of being cut at the screen's edge; the
    // arguments give way first, so the outcome stays in sight.
    const room = Math.max(8, MAX_COLLAPSED_LINES * (width - 8) - [...name].length - [...result].length);
    const flat = safeText(block.args).replace(/\s*\n\s*/g, ' ');
    const args = flat.length > room ? `${[...clip(flat, width)].slice(0, room - 1).join('')}…` : flat;
    const head = `  ${TOOL_ICON[block.state]} ${color.bold(name)} ${color.dim(args)}${styledResult}`;
    return capped(
      wrapLine(head, width - 4).map((l, i) => (i === 0 ? l : `    ${l}`)),
      width,
    );
  }
  const lines = wrapLine(`  ${TOOL_ICON[block.state]} ${color.bold(name)}${styledResult}`, width);
  const args = prettyArgs(clip(block.args, width * MAX_DETAIL_LINES))
    .split('\n')
    .flatMap((l) => wrapLine(color.dim(`      ${safeText(l)}`), width));
  lines.push(...args.slice(0, MAX_DETAIL_LINES));
  if (args.length > MAX_DETAIL_LINES) lines.push(color.dim(`      … ${args.length - MAX_DETAIL_LINES} more lines`));
  if (block.output !== undefined) {
    const out = safeText(block.output).split('\n');
    for (const l of out.slice(0, MAX_TOOL_OUTPUT_LINES)) lines.push(...wrapLine(`    │ ${clip(l, width * 2)}`, width));
    if (out.length > MAX_TOOL_OUTPUT_LINES)
      lines.push(color.dim(`    │ … ${out.length - MAX_TOOL_OUTPUT_LINES} more lines`));
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

/** No more of `text` than the collapsed lines can show (a Write's arguments can be megabytes). */
function clip(text: string, width: number): string {
  const max = MAX_COLLAPSED_LINES * width;
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** At most a few screen lines; the last one shown ends with `…` when more were cut. */
function capped(lines: string[], width: number): string[] {
  if (lines.length <= MAX_COLLAPSED_LINES) return lines;
  const kept = lines.slice(0, MAX_COLLAPSED_LINES);
  kept[kept.length - 1] = `${wrapLine(kept[kept.length - 1], width - 1)[0]}${color.dim('…')}`;
  return kept;
}
