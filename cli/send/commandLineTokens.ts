import type { SendToken } from './commandLineSegments.js';

/** oclif's parse tokens, in command-line order. */
export type RawToken = { type: 'arg'; input: string } | { type: 'flag'; flag: string; input: string };

const SEGMENT_FLAGS = new Set(['file', 'knowledge', 'workflow', 'segment']);

/** The pieces of `yoi send`'s command line that become segments, in the order they were typed. */
export function commandLineTokens(raw: readonly unknown[]): SendToken[] {
  const tokens: SendToken[] = [];
  for (const t of raw as RawToken[]) {
    if (t.type === 'arg') tokens.push({ type: 'text', value: t.input });
    else if (t.type === 'flag' && SEGMENT_FLAGS.has(t.flag))
      tokens.push({ type: t.flag as Exclude<SendToken['type'], 'text'>, value: t.input });
  }
  return tokens;
}
