import { describe, expect, it } from '@jest/globals';
import { InputBuffer } from '../../../cli/attach/InputBuffer.js';
import { newPaste, pasteLabel } from '../../../cli/attach/pasteChip.js';
import type { PasteSegment } from '../../../core/protocol/index.js';

const paste = (content: string, id = 7): PasteSegment => ({ kind: 'paste', id, chars: [...content].length, lines: 1, content });

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
    expect(input.toSegments()).toEqual([{ kind: 'text', content: 'see ' }, p1, p2, { kind: 'text', content: ' and\nthen' }]);
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
