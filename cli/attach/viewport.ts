import type { Block } from './Block.js';
import { blockLines } from './blockLines.js';
import { SegmentKinds } from './SegmentKinds.js';

/** `follow` keeps the newest line at the bottom; a number is the first line shown. */
export type Scroll = 'follow' | number;

export interface Viewport {
  lines: string[];
  /** Lines of the whole transcript at this width. */
  total: number;
  /** Index of the first line shown. */
  top: number;
}

/**
 * The `height` transcript lines to show: the tail when following, else from line `scroll`.
 * Only the blocks on screen are collected; the others are only counted (their lines are cached).
 */
export function viewport(
  blocks: readonly Block[],
  tail: readonly string[],
  width: number,
  height: number,
  scroll: Scroll,
  details: boolean,
  kinds: SegmentKinds = SegmentKinds.builtIn,
): Viewport {
  const rendered = blocks.map((b) => blockLines(b, width, details, kinds));
  const total = rendered.reduce((n, l) => n + l.length, 0) + tail.length;
  const maxTop = Math.max(0, total - height);
  const top = scroll === 'follow' ? maxTop : Math.max(0, Math.min(scroll, maxTop));
  const lines: string[] = [];
  let at = 0;
  for (const block of [...rendered, tail]) {
    if (lines.length >= height) break;
    if (at + block.length <= top) {
      at += block.length;
      continue;
    }
    const from = Math.max(0, top - at);
    lines.push(...block.slice(from, from + height - lines.length));
    at += block.length;
  }
  return { lines, total, top };
}
