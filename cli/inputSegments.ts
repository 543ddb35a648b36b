import type { Segment } from '../core/protocol/index.js';

/** `paste` segment metadata as clients compute it: chars = code points, lines as Rust counts them. */
export function pasteSegment(content: string, id = 1): Segment {
  const chars = [...content].length;
  const lines = content === '' ? 1 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  return { kind: 'paste', id, chars, lines: Math.max(lines, 1), content };
}
