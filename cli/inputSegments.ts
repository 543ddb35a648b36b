import type { Segment } from '../core/protocol/index.js';

/** `paste` segment metadata as clients compute it: chars = code points, lines as Rust counts them. */
export function pasteSegment(content: string, id = 1): Segment {
  const chars = [...content].length;
  const lines = content === '' ? 1 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0);
  return { kind: 'paste', id, chars, lines: Math.max(lines, 1), content };
}

/** The segments of `yoi send`: text args, piped stdin as a paste, then refs. */
export function sendSegments(opts: { text: string[]; stdin?: string; files?: string[]; knowledge?: string[]; workflow?: string }): Segment[] {
  const segments: Segment[] = [];
  if (opts.workflow !== undefined) segments.push({ kind: 'workflow_invoke', slug: opts.workflow });
  const paste = opts.stdin !== undefined && opts.stdin !== '';
  // Segments are joined without a separator: keep the message and the pasted block apart.
  if (opts.text.length > 0) segments.push({ kind: 'text', content: opts.text.join(' ') + (paste ? '\n' : '') });
  if (paste) segments.push(pasteSegment(opts.stdin!));
  for (const path of opts.files ?? []) segments.push({ kind: 'file_ref', path });
  for (const slug of opts.knowledge ?? []) segments.push({ kind: 'knowledge_ref', slug });
  return segments;
}
