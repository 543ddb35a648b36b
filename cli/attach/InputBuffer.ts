import type { PasteSegment, Segment } from '../../core/protocol/index.js';
import { atomsToSegments, scanTokens } from './refTokens.js';

/** One unit of input: a typed character (a code point) or a whole paste, which is indivisible. */
export type Atom = { kind: 'char'; ch: string } | { kind: 'paste'; paste: PasteSegment };

/**
 * The input line as atoms with a cursor between them (immutable: every edit returns a new
 * buffer). A paste is one atom: Backspace/Delete remove it whole and the cursor never enters it.
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

  /** An input that submits as `segments` again, as far as the text allows (a refused run goes back to the editor). */
  static fromSegments(segments: readonly Segment[]): InputBuffer {
    let input = InputBuffer.empty;
    for (const s of segments) {
      if (s.kind === 'paste') input = input.insertPaste(s);
      else if (s.kind === 'text') input = input.insertText(escapeRefs(s.content));
      else if (s.kind === 'file_ref') input = input.insertText(`@${s.path}`);
      else if (s.kind === 'knowledge_ref') input = input.insertText(`#${s.slug}`);
      else if (s.kind === 'workflow_invoke') input = input.insertText(`/${s.slug}`);
    }
    return input;
  }

  get length(): number {
    return this.atoms.length;
  }

  /** Nothing but whitespace characters (a paste is never blank). */
  get isBlank(): boolean {
    return this.atoms.every((a) => a.kind === 'char' && /^\s$/u.test(a.ch));
  }

  /** The segments a submit sends: character runs become text (and refs), each paste a paste. */
  toSegments(): Segment[] {
    return atomsToSegments(this.atoms);
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
    return this.splice(start, end, [...text].map((ch) => ({ kind: 'char', ch })));
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

  private moveTo(cursor: number): InputBuffer {
    const c = Math.max(0, Math.min(cursor, this.atoms.length));
    return c === this.cursor ? this : new InputBuffer(this.atoms, c);
  }

  private splice(start: number, end: number, insert: Atom[]): InputBuffer {
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
function escapeRefs(text: string): string {
  const chars = [...text];
  const atoms: Atom[] = chars.map((ch) => ({ kind: 'char', ch }));
  const at = new Set(scanTokens(atoms).flatMap((t) => (t.type === 'ref' && t.ref !== undefined ? [t.start] : [])));
  return chars.map((ch, i) => (at.has(i) ? `\\${ch}` : ch)).join('');
}
