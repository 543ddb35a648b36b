import { UnknownSegment, segmentKind, type Segment } from '../../core/protocol/index.js';
import { pasteLabel } from './pasteChip.js';
import type { SegmentKinds } from './SegmentKinds.js';
import { color } from './style.js';
import { safeText } from '../safeText.js';

/** A piece of a user message as shown: typed text, a paste chip, a `@ref`, or a labelled chip. */
export interface Piece {
  readonly style: 'text' | 'paste' | 'ref' | 'chip';
  readonly text: string;
  readonly kind?: string;
}

const MAX_CHIP_VALUE = 80;

/**
 * A user message's segments as pieces. A reference whose kind has a sigil here is written with
 * it (`@src/a.ts`, `!JIRA-1`); any other segment (a kind without a sigil, or one the pod does
 * not advertise) is a labelled chip `[kind: value]`, never "unknown". Clients send references
 * next to text without a space (`yoi send --file a.md "explain"`), so a space is shown between
 * a reference and a word it would otherwise touch.
 */
export function segmentPieces(segments: readonly Segment[], kinds: SegmentKinds): Piece[] {
  const pieces: Piece[] = [];
  for (const s of segments) {
    const piece = pieceOf(s, kinds);
    const prev = pieces[pieces.length - 1];
    if (prev && needsGap(prev, piece)) pieces.push({ style: 'text', text: ' ' });
    pieces.push(piece);
  }
  return pieces;
}

export function pieceOf(s: Segment, kinds: SegmentKinds): Piece {
  if (s.kind === 'text') return { style: 'text', text: s.content };
  if (s.kind === 'paste') return { style: 'paste', text: pasteLabel(s) };
  const kind = segmentKind(s);
  const written = kinds.written(s);
  return written ? { style: 'ref', text: written.text, kind } : { style: 'chip', text: chipLabel(s, kinds), kind };
}

/**
 * Whether a space must stand between two pieces: a reference or labelled chip next to a word.
 * Paste chips stay where they were pasted; an opening bracket before, or punctuation after, a
 * reference needs no space (`(@a.md)`, `@a.md, then`).
 */
export function needsGap(a: Piece, b: Piece): boolean {
  const spaced = (p: Piece) => p.style === 'ref' || p.style === 'chip';
  if (!spaced(a) && !spaced(b)) return false;
  if (a.style === 'paste' || b.style === 'paste' || a.text === '' || b.text === '') return false;
  if (/\s$/u.test(a.text) || /^\s/u.test(b.text)) return false;
  if (spaced(b) && !spaced(a) && /[([{"']$/u.test(a.text)) return false;
  if (spaced(a) && !spaced(b) && /^[.,;:!?)\]}"']/u.test(b.text)) return false;
  return true;
}

/** `[kind: value]` for a segment that cannot be written with a sigil. */
export function chipLabel(segment: Segment, kinds: SegmentKinds): string {
  const kind = segmentKind(segment);
  let value = kinds.refOf(segment);
  if (value === undefined) {
    const raw = segment instanceof UnknownSegment ? segment.raw : (segment as unknown as Record<string, unknown>);
    const { kind: _kind, ...rest } = raw;
    value = Object.keys(rest).length > 0 ? JSON.stringify(rest) : '';
  }
  const shown = [...value].length > MAX_CHIP_VALUE ? `${[...value].slice(0, MAX_CHIP_VALUE - 1).join('')}…` : value;
  return shown === '' ? `[${kind}]` : `[${kind}: ${shown.replace(/\s+/gu, ' ')}]`;
}

const REF_COLOR: Readonly<Record<string, (s: string) => string>> = {
  file_ref: color.cyan,
  knowledge_ref: color.yellow,
  workflow_invoke: color.green,
};

/** The colour a reference of `kind` is drawn in (third-party kinds share one). */
export function refColor(kind: string): (s: string) => string {
  return REF_COLOR[kind] ?? color.blue;
}

/** A user message as typed, styled: text, paste chips, references in their kind's colour, labelled chips. */
export function segmentsText(segments: readonly Segment[], kinds: SegmentKinds): string {
  return segmentPieces(segments, kinds)
    .map((p) => {
      const text = safeText(p.text);
      if (p.style === 'paste') return color.magenta(text);
      if (p.style === 'ref') return refColor(p.kind ?? '')(text);
      if (p.style === 'chip') return color.blue(text);
      return text;
    })
    .join('');
}
