import type { PasteSegment, Segment } from '../../core/protocol/index.js';
import type { Atom } from './InputBuffer.js';
import { SegmentKinds, type SigilKind } from './SegmentKinds.js';

/** A scanned piece of input; `start..end` are atom indexes. */
export type Token =
  | { type: 'text'; text: string; start: number; end: number }
  | { type: 'paste'; paste: PasteSegment; start: number; end: number }
  /** A segment kept whole (one that cannot be written with a sigil here). */
  | { type: 'chip'; segment: Segment; start: number; end: number }
  /** `value` is everything typed after the sigil; `ref` is the reference it makes, if valid. */
  | { type: 'ref'; kind: string; sigil: SigilKind; value: string; ref?: string; start: number; end: number };

const SLUG_CHAR = /[\p{L}\p{N}_\-./]/u;
/** Opening punctuation that may stand right before a sigil: `(@file)`, `"#slug"`. */
const OPENERS = new Set(['(', '[', '{', '"', "'"]);
const PATH_TRAILING = /[.,;:!?)\]}"']+$/u;
const SLUG_TRAILING = /[./]+$/u;

/**
 * The grammar of typed input, for the sigils the pod advertises (`kinds`; by default `@path`
 * file_ref, `#slug` knowledge_ref, `/slug` workflow_invoke): a reference starts at the
 * beginning, after whitespace, after a chip or after an opening bracket or quote. A slug runs
 * over letters, digits and `_-./`, any other token (a path, a third-party kind's reference) to
 * the next whitespace; trailing punctuation is left as text. `/` starts a reference only as the
 * first word, and `#` followed by digits only (`#123`) stays text. Nothing inside a backtick
 * code span is a reference, and a backslash before a sigil writes the sigil itself.
 */
export function scanTokens(atoms: readonly Atom[], kinds: SegmentKinds = SegmentKinds.builtIn): Token[] {
  const tokens: Token[] = [];
  const ch = (i: number) => {
    const a = atoms[i];
    return a !== undefined && a.kind === 'char' ? a.ch : undefined;
  };
  let text = '';
  let textStart = 0;
  const flushText = (end: number) => {
    if (text !== '') tokens.push({ type: 'text', text, start: textStart, end });
    text = '';
  };
  const addText = (s: string, at: number) => {
    if (text === '') textStart = at;
    text += s;
  };
  const whole = (atom: Exclude<Atom, { kind: 'char' }>, i: number) => {
    flushText(i);
    tokens.push(
      atom.kind === 'paste'
        ? { type: 'paste', paste: atom.paste, start: i, end: i + 1 }
        : { type: 'chip', segment: atom.segment, start: i, end: i + 1 },
    );
  };
  const chars = (from: number, to: number) =>
    atoms
      .slice(from, to)
      .map((a) => (a as { ch: string }).ch)
      .join('');

  for (let i = 0; i < atoms.length;) {
    const atom = atoms[i];
    if (atom.kind !== 'char') {
      whole(atom, i);
      i++;
      continue;
    }
    const c = atom.ch;
    if (c === '`') {
      const run = runLength(atoms, i);
      const close = findClosingRun(atoms, i + run, run);
      const end = close === -1 ? i + run : close + run;
      // A code span (or an unmatched run of backticks) is text, references and all; a chip
      // inside it stays a chip.
      for (let j = i; j < end; j++) {
        const inner = atoms[j];
        if (inner.kind === 'char') addText(inner.ch, j);
        else whole(inner, j);
      }
      i = end;
      continue;
    }
    const escaped = c === '\\' ? kinds.sigilAt(ch, i + 1) : undefined;
    if (escaped) {
      addText(escaped.sigil, i);
      i += 1 + [...escaped.sigil].length;
      continue;
    }
    const sigil = atBoundary(atoms, i) ? kinds.sigilAt(ch, i) : undefined;
    if (sigil && (sigil.sigil !== '/' || onlySpaceBefore(atoms, i))) {
      const from = i + [...sigil.sigil].length;
      let j = from;
      while (j < atoms.length && tokenChar(sigil, ch(j))) j++;
      const value = chars(from, j);
      const trimmed = value.replace(sigil.token === 'word' ? PATH_TRAILING : SLUG_TRAILING, '');
      const ref = validRef(sigil, trimmed) ? trimmed : undefined;
      flushText(i);
      if (ref !== undefined && trimmed.length < value.length) {
        // The trailing punctuation goes back to the text.
        const refEnd = from + [...trimmed].length;
        tokens.push({ type: 'ref', kind: sigil.kind, sigil, value: trimmed, ref, start: i, end: refEnd });
        addText(chars(refEnd, j), refEnd);
      } else {
        tokens.push({ type: 'ref', kind: sigil.kind, sigil, value, ref, start: i, end: j });
      }
      i = j;
      continue;
    }
    addText(c, i);
    i++;
  }
  flushText(atoms.length);
  return tokens;
}

/** The segments a submit sends: adjacent text merges into one `text` segment. */
export function atomsToSegments(atoms: readonly Atom[], kinds: SegmentKinds = SegmentKinds.builtIn): Segment[] {
  const segments: Segment[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') segments.push({ kind: 'text', content: text });
    text = '';
  };
  for (const t of scanTokens(atoms, kinds)) {
    if (t.type === 'text') text += t.text;
    else if (t.type === 'ref' && t.ref === undefined) text += t.sigil.sigil + t.value;
    else {
      flush();
      if (t.type === 'paste') segments.push(t.paste);
      else if (t.type === 'chip') segments.push(t.segment);
      else segments.push(kinds.segment(t.sigil, t.ref!));
    }
  }
  flush();
  return segments;
}

/** The reference being typed right before the cursor (for completion), with what follows the sigil. */
export function refAtCursor(
  atoms: readonly Atom[],
  cursor: number,
  kinds: SegmentKinds = SegmentKinds.builtIn,
): { kind: string; sigil: string; prefix: string; start: number; end: number } | undefined {
  for (const t of scanTokens(atoms, kinds)) {
    const from = t.type === 'ref' ? t.start + [...t.sigil.sigil].length : 0;
    if (t.type === 'ref' && from <= cursor && t.start < cursor && cursor <= t.end) {
      const prefix = atoms
        .slice(from, cursor)
        .map((a) => (a as { ch: string }).ch)
        .join('');
      return { kind: t.kind, sigil: t.sigil.sigil, prefix, start: t.start, end: t.end };
    }
  }
  return undefined;
}

function tokenChar(sigil: SigilKind, c: string | undefined): boolean {
  if (c === undefined) return false; // end of input or a chip
  if (sigil.token === 'word') return !/\s/u.test(c) && c !== '`';
  return SLUG_CHAR.test(c);
}

function validRef(sigil: SigilKind, value: string): boolean {
  if (value === '') return false;
  if ((sigil.sigil === '#' || sigil.token === 'slug') && /^\d+$/.test(value)) return false; // `#123` is an issue number
  if (sigil.token === 'word') return true;
  return value.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

function atBoundary(atoms: readonly Atom[], i: number): boolean {
  if (i === 0) return true;
  const prev = atoms[i - 1];
  return prev.kind !== 'char' || /\s/u.test(prev.ch) || OPENERS.has(prev.ch);
}

function onlySpaceBefore(atoms: readonly Atom[], i: number): boolean {
  return atoms.slice(0, i).every((a) => a.kind === 'char' && /\s/u.test(a.ch));
}

function runLength(atoms: readonly Atom[], i: number): number {
  let j = i;
  while (j < atoms.length && atoms[j].kind === 'char' && (atoms[j] as { ch: string }).ch === '`') j++;
  return j - i;
}

/** Index of the next run of exactly `n` backticks at or after `from`, or -1. */
function findClosingRun(atoms: readonly Atom[], from: number, n: number): number {
  for (let j = from; j < atoms.length;) {
    const run = runLength(atoms, j);
    if (run === 0) {
      j++;
      continue;
    }
    if (run === n) return j;
    j += run;
  }
  return -1;
}
