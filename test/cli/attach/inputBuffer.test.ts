import { describe, expect, it } from '@jest/globals';
import { InputBuffer } from '../../../cli/attach/InputBuffer.js';
import { newPaste, pasteLabel } from '../../../cli/attach/pasteChip.js';
import type { PasteSegment } from '../../../core/protocol/index.js';

const paste = (content: string, id = 7): PasteSegment => ({
  kind: 'paste',
  id,
  chars: [...content].length,
  lines: 1,
  content,
});

describe('paste chips', () => {
  it('count code points and lines as Rust does, number pastes from 1 per process, and read CR line breaks as lines', () => {
    const a = newPaste('a😀\r\nb\rc\n');
    const b = newPaste('');
    const c = newPaste('\n\n');
    expect(a).toEqual({ kind: 'paste', id: a.id, chars: 7, lines: 3, content: 'a😀\nb\nc\n' });
    expect(b.id).toBe(a.id + 1);
    expect(c.id).toBe(a.id + 2);
    expect([b.lines, c.lines, newPaste('x').lines, newPaste('x\ny').lines]).toEqual([1, 2, 1, 2]);
    expect(pasteLabel(a)).toBe(`[Clipboard #${a.id} | 7 chars, 3 lines]`);
  });
});

describe('InputBuffer', () => {
  it('keeps a paste as one atom: the cursor steps over it and Backspace/Delete remove it whole', () => {
    let input = InputBuffer.empty.insertText('ab').insertPaste(paste('x\ny')).insertText('c');
    expect(input.length).toBe(4);
    input = input.left();
    expect(input.cursor).toBe(3);
    input = input.backspace();
    expect(input.toSegments()).toEqual([{ kind: 'text', content: 'abc' }]);
    input = InputBuffer.empty.insertPaste(paste('p')).insertText('z').home();
    expect(input.deleteForward().toSegments()).toEqual([{ kind: 'text', content: 'z' }]);
    expect(input.right().cursor).toBe(1);
  });

  it('submits character runs as one text segment and each paste as a paste segment, in order', () => {
    const p1 = paste('one', 1);
    const p2 = paste('two', 2);
    const input = InputBuffer.empty.insertText('see ').insertPaste(p1).insertPaste(p2).insertText(' and\nthen');
    expect(input.toSegments()).toEqual([
      { kind: 'text', content: 'see ' },
      p1,
      p2,
      { kind: 'text', content: ' and\nthen' },
    ]);
  });

  it('moves between logical lines keeping the column, and Home/End stay on the line', () => {
    let input = InputBuffer.empty.insertText('abcdef\nxy\nlonger line');
    expect(input.cursor).toBe(21);
    input = input.up();
    expect(input.cursor).toBe(9); // end of "xy" (shorter than the column)
    input = input.up();
    expect(input.cursor).toBe(2);
    input = input.end();
    expect(input.cursor).toBe(6);
    input = input.down().home();
    expect(input.cursor).toBe(7);
    expect(input.down().down().cursor).toBe(21);
  });

  it('treats whitespace-only input as blank, but never a paste', () => {
    expect(InputBuffer.empty.insertText(' \n\t').isBlank).toBe(true);
    expect(InputBuffer.empty.insertPaste(paste(' ')).isBlank).toBe(false);
  });

  it('is immutable: edits return new buffers', () => {
    const a = InputBuffer.empty.insertText('x');
    const b = a.insertText('y');
    expect(a.toSegments()).toEqual([{ kind: 'text', content: 'x' }]);
    expect(b.toSegments()).toEqual([{ kind: 'text', content: 'xy' }]);
    expect(b.replace(0, 1, 'zz').toSegments()).toEqual([{ kind: 'text', content: 'zzy' }]);
  });

  it('rebuilds an editable input from segments that submits as the same segments', () => {
    const segments = [
      { kind: 'text', content: 'mail @bob, see `@code` and #tag ' },
      paste('p\nq', 9),
      { kind: 'file_ref', path: 'a.md' },
      { kind: 'text', content: ' /not-first' },
    ] as const;
    const input = InputBuffer.fromSegments([...segments]);
    expect(input.toSegments()).toEqual(segments);
    expect(input.atoms.filter((a) => a.kind === 'paste')).toHaveLength(1);
  });
});

describe('readline editing', () => {
  const text = (b: InputBuffer) => b.atoms.map((a) => (a.kind === 'char' ? a.ch : '▣')).join('');
  const at = (s: string, cursor: number) =>
    InputBuffer.of(
      [...s].map((ch) => ({ kind: 'char' as const, ch })),
      cursor,
    );
  const kill = (b: InputBuffer, to: Parameters<InputBuffer['boundary']>[0]) => b.deleteRange(b.boundary(to), b.cursor);

  it('moves by words (Alt-B/F): letters, digits and _ make a word, a chip is a word of its own', () => {
    const b = at('git commit --amend_x   now', 26);
    expect([b.wordLeft().cursor, b.wordLeft().wordLeft().cursor, b.wordLeft().wordLeft().wordLeft().cursor]).toEqual([
      23, 13, 4,
    ]);
    expect(b.home().wordRight().cursor).toBe(3);
    expect(b.home().wordRight().wordRight().wordRight().cursor).toBe(20);
    const chip = InputBuffer.empty.insertText('a ').insertPaste(paste('p')).insertText(' b');
    expect([
      chip.wordLeft().cursor,
      chip.wordLeft().wordLeft().cursor,
      chip.home().wordRight().wordRight().cursor,
    ]).toEqual([4, 2, 3]);
  });

  it('deletes to the line start (Ctrl-U), line end (Ctrl-K), the word before (Ctrl-W, Alt-Backspace), the word after (Alt-D)', () => {
    const b = at('first line\nsecond line here', 22);
    expect(text(kill(b, 'line-start'))).toBe('first line\n here');
    expect(text(kill(b, 'line-end'))).toBe('first line\nsecond line');
    expect(text(kill(b, 'space-word-left'))).toBe('first line\nsecond  here');
    expect(text(kill(at('path/to/file.ts', 15), 'space-word-left'))).toBe('');
    expect(text(kill(at('path/to/file.ts', 15), 'word-left'))).toBe('path/to/file.');
    expect(text(kill(at('one two', 0), 'word-right'))).toBe(' two');
    // At a line's edge, Ctrl-U and Ctrl-K join the lines.
    expect(text(kill(at('a\nb', 2), 'line-start'))).toBe('ab');
    expect(text(kill(at('a\nb', 1), 'line-end'))).toBe('ab');
    expect(at('ab', 0).boundary('line-start')).toBe(0);
  });

  it('tells whether the cursor is on the first or last line (where Up/Down recall history)', () => {
    const b = at('a\nb\nc', 3);
    expect([b.onFirstLine, b.onLastLine, b.home().up().onFirstLine, b.end().down().onLastLine]).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});
