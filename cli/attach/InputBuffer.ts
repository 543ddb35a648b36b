import { isDeepStrictEqual } from 'node:util';
import type { PasteSegment, Segment } from '../../core/protocol/index.js';
import { atomsToSegments, scanTokens } from './refTokens.js';
import { SegmentKinds } from './SegmentKinds.js';
import { needsGap, pieceOf, type Piece } from './segmentText.js';

/**
 * One unit of input: a typed character (a code point), a whole paste, or a segment kept whole
 * (a reference that cannot be written with a sigil here, recalled from history); the last two
 * are indivisible chips.
 */
export type Atom =
  { kind: 'char'; ch: string } | { kind: 'paste'; paste: PasteSegment } | { kind: 'chip'; segment: Segment };

/**
 * The input line as atoms with a cursor between them (immutable: every edit returns a new
 * buffer). A chip is one atom: Backspace/Delete remove it whole and the cursor never enters it.
 */
export class InputBuffer {
  static readonly empty = new InputBuffer([], 0);

  private constructor(
    readonly atoms: readonly Atom[],
    /** Index between atoms, 0..atoms.length. */
    readonly cursor: number,
  ) {}

  static of(atoms: readonly Atom[], cursor = atoms.length): InputBuffer {
    return new InputBuffer(atoms, Math.max(0, Math.min(cursor, atoms.length)));
  }

  /**
   * An input that submits as `segments` again (a refused run goes back to the editor, Up recalls
   * an earlier input): references are written with their sigil where that reads back as the
   * same segment, else kept as chips; a space goes between a reference and a word it touches.
   */
  static fromSegments(segments: readonly Segment[], kinds: SegmentKinds = SegmentKinds.builtIn): InputBuffer {
    let input = InputBuffer.empty;
    let prev: Piece | undefined;
    for (const s of segments) {
      let piece = pieceOf(s, kinds);
      let gap = prev !== undefined && needsGap(prev, piece);
      if (piece.style === 'ref' && !readsBack(gap ? input.insertText(' ') : input, piece.text, s, kinds)) {
        piece = { ...piece, style: 'chip' };
        gap = prev !== undefined && needsGap(prev, piece);
      }
      if (gap) input = input.insertText(' ');
      if (s.kind === 'paste') input = input.insertPaste(s);
      else if (s.kind === 'text') input = input.insertText(escapeRefs(s.content, kinds));
      else if (piece.style === 'ref') input = input.insertText(piece.text);
      else input = input.splice(input.cursor, input.cursor, [{ kind: 'chip', segment: s }]);
      prev = piece;
    }
    return input;
  }

  get length(): number {
    return this.atoms.length;
  }

  /** Nothing but whitespace characters (a chip is never blank). */
  get isBlank(): boolean {
    return this.atoms.every((a) => a.kind === 'char' && /^\s$/u.test(a.ch));
  }

  /** The segments a submit sends: character runs become text (and references), each chip its segment. */
  toSegments(kinds: SegmentKinds = SegmentKinds.builtIn): Segment[] {
    return atomsToSegments(this.atoms, kinds);
  }

  insertText(text: string): InputBuffer {
    const chars: Atom[] = [...text].map((ch) => ({ kind: 'char', ch }));
    return this.splice(this.cursor, this.cursor, chars);
  }

  insertPaste(paste: PasteSegment): InputBuffer {
    return this.splice(this.cursor, this.cursor, [{ kind: 'paste', paste }]);
  }

  /** Replaces atoms `start..end` with `text` and puts the cursor after it. */
  replace(start: number, end: number, text: string): InputBuffer {
    return this.splice(
      start,
      end,
      [...text].map((ch) => ({ kind: 'char', ch })),
    );
  }

  backspace(): InputBuffer {
    return this.cursor === 0 ? this : this.splice(this.cursor - 1, this.cursor, []);
  }

  deleteForward(): InputBuffer {
    if (this.cursor >= this.atoms.length) return this;
    const atoms = [...this.atoms];
    atoms.splice(this.cursor, 1);
    return new InputBuffer(atoms, this.cursor);
  }

  left(): InputBuffer {
    return this.moveTo(this.cursor - 1);
  }

  right(): InputBuffer {
    return this.moveTo(this.cursor + 1);
  }

  /** Start of the current logical line. */
  home(): InputBuffer {
    return this.moveTo(this.lineStart(this.cursor));
  }

  /** End of the current logical line. */
  end(): InputBuffer {
    return this.moveTo(this.lineEnd(this.cursor));
  }

  /** The same column on the previous logical line (or the start when on the first line). */
  up(): InputBuffer {
    const start = this.lineStart(this.cursor);
    if (start === 0) return this.moveTo(0);
    const prevStart = this.lineStart(start - 1);
    return this.moveTo(Math.min(prevStart + (this.cursor - start), start - 1));
  }

  /** The same column on the next logical line (or the end when on the last line). */
  down(): InputBuffer {
    const end = this.lineEnd(this.cursor);
    if (end === this.atoms.length) return this.moveTo(end);
    const column = this.cursor - this.lineStart(this.cursor);
    return this.moveTo(Math.min(end + 1 + column, this.lineEnd(end + 1)));
  }

  /** Before a word: Alt-B (a chip is a word of its own). */
  wordLeft(): InputBuffer {
    return this.moveTo(this.boundary('word-left'));
  }

  /** After a word: Alt-F. */
  wordRight(): InputBuffer {
    return this.moveTo(this.boundary('word-right'));
  }

  /** Whether the cursor is on the first (last) logical line: Up (Down) there recalls history. */
  get onFirstLine(): boolean {
    return this.lineStart(this.cursor) === 0;
  }

  get onLastLine(): boolean {
    return this.lineEnd(this.cursor) === this.atoms.length;
  }

  /**
   * Where an editing key reaches from the cursor: the start of the word before it (letters,
   * digits, `_`), the end of the word after it, the start of the whitespace-separated word
   * before it (Ctrl-W), the start or end of the line — or across the line break when the cursor
   * is already there, so Ctrl-U and Ctrl-K join lines.
   */
  boundary(to: 'word-left' | 'word-right' | 'space-word-left' | 'line-start' | 'line-end'): number {
    let i = this.cursor;
    switch (to) {
      case 'word-left':
        while (i > 0 && !this.isWord(i - 1)) i--;
        if (i > 0 && this.atoms[i - 1].kind !== 'char') return i - 1;
        while (i > 0 && this.isWord(i - 1) && this.atoms[i - 1].kind === 'char') i--;
        return i;
      case 'word-right':
        while (i < this.atoms.length && !this.isWord(i)) i++;
        if (i < this.atoms.length && this.atoms[i].kind !== 'char') return i + 1;
        while (i < this.atoms.length && this.isWord(i) && this.atoms[i].kind === 'char') i++;
        return i;
      case 'space-word-left':
        while (i > 0 && this.isSpace(i - 1)) i--;
        while (i > 0 && !this.isSpace(i - 1)) i--;
        return i;
      case 'line-start':
        return i > 0 && this.lineStart(i) === i ? i - 1 : this.lineStart(i);
      case 'line-end':
        return i < this.atoms.length && this.lineEnd(i) === i ? i + 1 : this.lineEnd(i);
    }
  }

  /** Removes atoms between `a` and `b` (either order); the cursor goes where they were. */
  deleteRange(a: number, b: number): InputBuffer {
    const [start, end] = a <= b ? [a, b] : [b, a];
    return start === end ? this : this.splice(start, end, []);
  }

  /** Atoms inserted at the cursor (Ctrl-Y yanks what the last kill removed). */
  insertAtoms(atoms: readonly Atom[]): InputBuffer {
    return atoms.length === 0 ? this : this.splice(this.cursor, this.cursor, atoms);
  }

  private isWord(i: number): boolean {
    const a = this.atoms[i];
    return a.kind !== 'char' || /[\p{L}\p{N}_]/u.test(a.ch);
  }

  private isSpace(i: number): boolean {
    const a = this.atoms[i];
    return a.kind === 'char' && /\s/u.test(a.ch);
  }

  private moveTo(cursor: number): InputBuffer {
    const c = Math.max(0, Math.min(cursor, this.atoms.length));
    return c === this.cursor ? this : new InputBuffer(this.atoms, c);
  }

  splice(start: number, end: number, insert: readonly Atom[]): InputBuffer {
    const atoms = [...this.atoms];
    atoms.splice(start, end - start, ...insert);
    return new InputBuffer(atoms, start + insert.length);
  }

  private isNewline(i: number): boolean {
    const a = this.atoms[i];
    return a !== undefined && a.kind === 'char' && a.ch === '\n';
  }

  private lineStart(at: number): number {
    let i = at;
    while (i > 0 && !this.isNewline(i - 1)) i--;
    return i;
  }

  private lineEnd(at: number): number {
    let i = at;
    while (i < this.atoms.length && !this.isNewline(i)) i++;
    return i;
  }
}

/** Text with a backslash before each sigil that would otherwise start a reference. */
function escapeRefs(text: string, kinds: SegmentKinds): string {
  const chars = [...text];
  const atoms: Atom[] = chars.map((ch) => ({ kind: 'char', ch }));
  const at = new Set(
    scanTokens(atoms, kinds).flatMap((t) => (t.type === 'ref' && t.ref !== undefined ? [t.start] : [])),
  );
  return chars.map((ch, i) => (at.has(i) ? `\\${ch}` : ch)).join('');
}

/** Whether `written`, typed after `input`, scans back as exactly the segment `s`. */
function readsBack(input: InputBuffer, written: string, s: Segment, kinds: SegmentKinds): boolean {
  const from = input.length;
  const atoms: Atom[] = [...input.atoms, ...[...written].map((ch): Atom => ({ kind: 'char', ch }))];
  const tokens = scanTokens(atoms, kinds).filter((t) => t.end > from);
  const [t] = tokens;
  if (tokens.length !== 1 || t.type !== 'ref' || t.ref === undefined || t.start !== from || t.end !== atoms.length)
    return false;
  return isDeepStrictEqual(plain(kinds.segment(t.sigil, t.ref)), plain(s));
}

function plain(s: Segment): unknown {
  return JSON.parse(JSON.stringify(s));
}
