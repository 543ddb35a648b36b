import type { Segment } from '../../core/api.js';

const MAX_ARGUMENTS = 64;

/**
 * The `key=value` words at the start of the text that follows the segment at `index` (values may be
 * double-quoted to hold spaces: `city="New York"`). Parsing stops at the first other word.
 */
export function promptArguments(input: readonly Segment[] | undefined, index: number): Record<string, string> {
  const next = input?.[index + 1] as { kind?: unknown; content?: unknown } | undefined;
  const args: Record<string, string> = {};
  if (next?.kind !== 'text' || typeof next.content !== 'string') return args;
  const word = /^\s*([A-Za-z_][A-Za-z0-9_.-]*)=(?:"((?:[^"\\]|\\.)*)"|(\S*))/;
  let rest = next.content;
  for (let n = 0; n < MAX_ARGUMENTS; n++) {
    const m = word.exec(rest);
    if (!m) break;
    args[m[1]] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
    rest = rest.slice(m[0].length);
  }
  return args;
}
