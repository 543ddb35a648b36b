import { color, wrapLine } from './style.js';

/**
 * The most of one message the transcript shows (UTF-16 units). Above it a reply is not lexed as
 * markdown either: lexing, rendering and wrapping cost ~0.5 ms per KiB, marked overflows the stack
 * on one paragraph of ~8 MiB, and a pod takes lines of 16 MiB.
 */
export const MAX_SHOWN_CHARS = 256 * 1024;

/** The start of `text` the transcript shows (at most `max` units) and how many units it leaves out. */
export function shownText(text: string, max = MAX_SHOWN_CHARS): { text: string; omitted: number } {
  if (text.length <= max) return { text, omitted: 0 };
  // Never cut a surrogate pair in two.
  const last = text.charCodeAt(max - 1);
  const end = last >= 0xd800 && last <= 0xdbff ? max - 1 : Math.max(0, max);
  return { text: text.slice(0, end), omitted: text.length - end };
}

/** The line that ends a message cut by {@link shownText}, wrapped to `width` and indented by two. */
export function omittedLines(omitted: number, width: number): string[] {
  const note = `… ${omitted.toLocaleString('en-US')} more characters not shown (yoi history prints the whole message)`;
  return wrapLine(color.dim(note), width - 2).map((l) => `  ${l}`);
}
