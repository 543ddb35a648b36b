import { kindOfSigil, type PasteSegment, type RefKind, type Segment } from '../../core/protocol/index.js';
import type { Atom } from './InputBuffer.js';

export type { RefKind };

/** A scanned piece of input; `start..end` are atom indexes. */
export type Token =
  | { type: 'text'; text: string; start: number; end: number }
  | { type: 'paste'; paste: PasteSegment; start: number; end: number }
  /** `value` is everything typed after the sigil; `ref` is the reference it makes, if valid. */
  | { type: 'ref'; kind: RefKind; sigil: string; value: string; ref?: string; start: number; end: number };

const SLUG_CHAR = /[\p{L}\p{N}_\-./]/u;
/** Opening punctuation that may stand right before a sigil: `(@file)`, `"#slug"`. */
const OPENERS = new Set(['(', '[', '{', '"', "'"]);
const PATH_TRAILING = /[.,;:!?)\]}"']+$/u;
const SLUG_TRAILING = /[./]+$/u;

/**
 * The grammar of typed input: `@path` (file_ref), `#slug` (knowledge_ref), and `/slug`
 * (workflow_invoke, only as the first word of the input) start at the beginning, after
 * whitespace, after a paste chip or after an opening bracket or quote. A path runs to the next
 * whitespace, a slug over letters, digits and `_-./`; trailing punctuation is left as text.
 * Nothing inside a backtick code span is a reference, and `\@`, `\#`, `\/` write the sigil
 * itself. A `#` followed by digits only (`#123`) stays text.
 */
export function scanTokens(atoms: readonly Atom[]): Token[] {
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

  for (let i = 0; i < atoms.length; ) {
    const atom = atoms[i];
    if (atom.kind === 'paste') {
      flushText(i);
      tokens.push({ type: 'paste', paste: atom.paste, start: i, end: i + 1 });
      i++;
      continue;
    }
    const c = atom.ch;
    if (c === '`') {
      const run = runLength(atoms, i);
      const close = findClosingRun(atoms, i + run, run);
      const end = close === -1 ? i + run : close + run;
      // A code span (or an unmatched run of backticks) is text, references and all; a paste
      // inside it stays a paste.
      for (let j = i; j < end; j++) {
        const inner = atoms[j];
        if (inner.kind === 'char') addText(inner.ch, j);
        else {
          flushText(j);
          tokens.push({ type: 'paste', paste: inner.paste, start: j, end: j + 1 });
        }
      }
      i = end;
      continue;
    }
    if (c === '\\' && kindOfSigil(ch(i + 1) ?? '') !== undefined) {
      addText(ch(i + 1)!, i);
      i += 2;
      continue;
    }
    const kind = kindOfSigil(c);
    if (kind && atBoundary(atoms, i) && (c !== '/' || onlySpaceBefore(atoms, i))) {
      let j = i + 1;
      while (j < atoms.length && tokenChar(kind, ch(j))) j++;
      const value = atoms.slice(i + 1, j).map((a) => (a as { ch: string }).ch).join('');
      const trimmed = value.replace(kind === 'file_ref' ? PATH_TRAILING : SLUG_TRAILING, '');
      const ref = validRef(kind, trimmed) ? trimmed : undefined;
      flushText(i);
      if (ref !== undefined && trimmed.length < value.length) {
        // The trailing punctuation goes back to the text.
        const refEnd = i + 1 + [...trimmed].length;
        tokens.push({ type: 'ref', kind, sigil: c, value: trimmed, ref, start: i, end: refEnd });
        addText(atoms.slice(refEnd, j).map((a) => (a as { ch: string }).ch).join(''), refEnd);
      } else {
        tokens.push({ type: 'ref', kind, sigil: c, value, ref, start: i, end: j });
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
export function atomsToSegments(atoms: readonly Atom[]): Segment[] {
  const segments: Segment[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') segments.push({ kind: 'text', content: text });
    text = '';
  };
  for (const t of scanTokens(atoms)) {
    if (t.type === 'text') text += t.text;
    else if (t.type === 'ref' && t.ref === undefined) text += t.sigil + t.value;
    else {
      flush();
      if (t.type === 'paste') segments.push(t.paste);
      else if (t.kind === 'file_ref') segments.push({ kind: 'file_ref', path: t.ref! });
      else if (t.kind === 'knowledge_ref') segments.push({ kind: 'knowledge_ref', slug: t.ref! });
      else segments.push({ kind: 'workflow_invoke', slug: t.ref! });
    }
  }
  flush();
  return segments;
}

/** The reference being typed right before the cursor (for completion), with what follows the sigil. */
export function refAtCursor(atoms: readonly Atom[], cursor: number): { kind: RefKind; prefix: string; start: number; end: number } | undefined {
  for (const t of scanTokens(atoms)) {
    if (t.type === 'ref' && t.start < cursor && cursor <= t.end) {
      const prefix = atoms.slice(t.start + 1, cursor).map((a) => (a as { ch: string }).ch).join('');
      return { kind: t.kind, prefix, start: t.start, end: t.end };
    }
  }
  return undefined;
}

function tokenChar(kind: RefKind, c: string | undefined): boolean {
  if (c === undefined) return false; // end of input or a paste chip
  if (kind === 'file_ref') return !/\s/u.test(c) && c !== '`';
  return SLUG_CHAR.test(c);
}

function validRef(kind: RefKind, value: string): boolean {
  if (value === '') return false;
  if (kind === 'file_ref') return true;
  if (/^\d+$/.test(value)) return false;
  return value.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

function atBoundary(atoms: readonly Atom[], i: number): boolean {
  if (i === 0) return true;
  const prev = atoms[i - 1];
  return prev.kind === 'paste' || /\s/u.test(prev.ch) || OPENERS.has(prev.ch);
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
  for (let j = from; j < atoms.length; ) {
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
