import type { Token } from 'marked';
import { MAX_SHOWN_CHARS, omittedLines, shownText } from './shownText.js';
import { color, wrapLine } from './style.js';
import { safeText } from '../safeText.js';

type Markdown = typeof import('./markdown.js');
/** The renderer, once loaded (see {@link loadMarkdown}); until then replies are shown as plain text. */
let md: Markdown | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the markdown renderer. It costs about as much start-up time as ink itself (marked-terminal
 * brings highlight.js with every language), so `yoi attach` loads it after its first frame and
 * shows replies as plain text until then.
 */
export function loadMarkdown(): Promise<void> {
  loading ??= import('./markdown.js').then((m) => {
    md = m;
  });
  return loading;
}

/** True once replies are rendered as markdown (part of every cached rendering's key). */
export function markdownLoaded(): boolean {
  return md !== undefined;
}

/** Streaming replies whose rendering is kept between deltas (only the newest one streams). */
const MAX_STREAMING = 4;

/** A reply rendered so far: the settled blocks (never rendered again) and the open last one. */
interface Rendered {
  /** The source the settled blocks came from (a prefix of the reply). */
  settledSrc: string;
  /** Rendered lines of the settled blocks, not wrapped. */
  settled: string[];
  /** Line breaks at the end of the settled source (two or more: a blank line before the next block). */
  breaks: number;
  /** Wrapped settled lines, for one width. */
  wrapped: { width: number; count: number; lines: string[] };
}

const streaming = new Map<number, Rendered>();

/** Top-level markdown blocks rendered so far (tests check that streaming renders each settled block once). */
export const markdownStats = { tokensRendered: 0 };

/**
 * The screen lines of an assistant reply, rendered as markdown, wrapped to `width` and indented
 * by two columns. While a reply streams, every top-level block but the last is settled: the
 * next delta can only extend the last block (a paragraph, a list, an unclosed code fence,
 * which marked reads as code to the end so it does not flip between text and code), so only
 * that block is lexed and rendered again. A blank line stands between two blocks only where
 * the reply has one. A reply over {@link MAX_SHOWN_CHARS}, or one marked fails on, is shown as
 * plain text, cut there with a note.
 */
export function markdownLines(id: number, text: string, done: boolean, width: number): string[] {
  if (!md || text.length > MAX_SHOWN_CHARS || unlexable.has(id)) return plainLines(text, width);
  try {
    return renderedLines(md, id, safeText(text), done, width);
  } catch {
    // marked's lexer recurses per nesting level (64 Ki `>` overflow the stack). Such a reply stays
    // plain, so a streaming one is not lexed again on every delta.
    streaming.delete(id);
    unlexable.add(id);
    for (const key of unlexable) if (unlexable.size > MAX_UNLEXABLE) unlexable.delete(key);
    return plainLines(text, width);
  }
}

/** Replies marked could not lex (see markdownLines); older ones belong to replies long scrolled past. */
const unlexable = new Set<number>();
const MAX_UNLEXABLE = 64;

/** The last plain rendering: a reply over the cap streams on, but the part shown stays the same. */
let lastPlain: { head: string; width: number; lines: string[] } | undefined;

/** A reply as plain text (no more of it than {@link shownText} keeps), wrapped like markdown lines. */
function plainLines(text: string, width: number): string[] {
  const { text: head, omitted } = shownText(text);
  if (lastPlain?.width !== width || lastPlain.head !== head)
    lastPlain = {
      head,
      width,
      lines: safeText(head)
        .split('\n')
        .flatMap((l) => wrapped(l, width)),
    };
  return omitted > 0 ? [...lastPlain.lines, ...omittedLines(omitted, width)] : lastPlain.lines;
}

function renderedLines(md: Markdown, id: number, src: string, done: boolean, width: number): string[] {
  let state = streaming.get(id);
  if (!state || !src.startsWith(state.settledSrc))
    state = { settledSrc: '', settled: [], breaks: 0, wrapped: { width, count: 0, lines: [] } };
  streaming.delete(id);

  const tokens = md.lexMarkdown(src.slice(state.settledSrc.length));
  let open = tokens.length;
  if (!done) {
    // Everything up to the last block that is not blank space is settled.
    open = tokens.length - 1;
    while (open >= 0 && tokens[open].type === 'space') open--;
    open = Math.max(0, open);
  }
  const settled = tokens.slice(0, open);
  if (settled.length > 0) {
    const out = appendTokens(md, state.settled, state.breaks, settled);
    state = {
      ...state,
      settledSrc: state.settledSrc + settled.map((t) => t.raw).join(''),
      settled: out.lines,
      breaks: out.breaks,
    };
  }
  const tail = appendTokens(md, [], state.breaks, tokens.slice(open), state.settled.length > 0);

  if (state.wrapped.width !== width) state.wrapped = { width, count: 0, lines: [] };
  if (state.wrapped.count < state.settled.length) {
    const more = state.settled.slice(state.wrapped.count).flatMap((l) => wrapped(l, width));
    state.wrapped = { width, count: state.settled.length, lines: [...state.wrapped.lines, ...more] };
  }
  if (!done) {
    streaming.set(id, state);
    // Older entries belong to replies a rebuild dropped or a failed run left open.
    for (const key of streaming.keys()) if (streaming.size > MAX_STREAMING) streaming.delete(key);
  }
  return [...state.wrapped.lines, ...tail.lines.flatMap((l) => wrapped(l, width))];
}

/** Lines of `tokens` after `lines` (which ended with `breaks` line breaks). */
function appendTokens(
  md: Markdown,
  lines: readonly string[],
  breaks: number,
  tokens: readonly Token[],
  hasContent = lines.length > 0,
): { lines: string[]; breaks: number } {
  const { renderToken, trailingNewlines } = md;
  const out = [...lines];
  let content = hasContent;
  let nl = breaks;
  for (const token of tokens) {
    markdownStats.tokensRendered++;
    const rendered = renderToken(token);
    if (rendered.length > 0) {
      if (content && nl >= 2) out.push('');
      out.push(...rendered);
      content = true;
      nl = 0;
    }
    nl += token.type === 'space' ? (token.raw.match(/\n/gu) ?? []).length : trailingNewlines(token.raw);
  }
  return { lines: out, breaks: nl };
}

function wrapped(line: string, width: number): string[] {
  if (line === md?.RULE) return [`  ${color.dim('─'.repeat(Math.max(1, width - 2)))}`];
  return wrapLine(line, width - 2).map((l) => `  ${l}`);
}
