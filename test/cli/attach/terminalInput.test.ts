import { describe, expect, it } from '@jest/globals';
import { BracketedPasteFilter, type InputPiece } from '../../../cli/attach/BracketedPasteFilter.js';
import { TerminalInput, type TerminalInputEvent } from '../../../cli/attach/TerminalInput.js';

const START = '\x1b[200~';
const END = '\x1b[201~';

/** Keys as one string and pastes in order, however the pieces were cut. */
function normalize(pieces: InputPiece[]): (string | { paste: string })[] {
  const out: (string | { paste: string })[] = [];
  let keys: Buffer[] = [];
  const flushKeys = () => {
    if (keys.length) out.push(Buffer.concat(keys).toString('utf8'));
    keys = [];
  };
  for (const p of pieces) {
    if (p.type === 'keys') keys.push(p.bytes);
    else {
      flushKeys();
      out.push({ paste: p.text });
    }
  }
  flushKeys();
  return out;
}

function feed(chunks: Buffer[]): InputPiece[] {
  const f = new BracketedPasteFilter();
  const pieces = chunks.flatMap((c) => f.push(c));
  return [...pieces, ...f.flush()];
}

// Keys with multi-byte characters, a paste holding newlines, escape sequences (even a fake end
// marker prefix) and emoji, then more keys and a second paste right after the first.
const STREAM = Buffer.from(
  `hé€${START}line 1\r\n\x1b[31mred\x1b[0m \x1b[201 😀\nlast${END}x\x1b[A${START}${END}${START}2${END}ü`,
);
const EXPECTED = [
  'hé€',
  { paste: 'line 1\r\n\x1b[31mred\x1b[0m \x1b[201 😀\nlast' },
  'x\x1b[A',
  { paste: '' },
  { paste: '2' },
  'ü',
];

describe('BracketedPasteFilter', () => {
  it('cuts pastes out of the key stream, whole and in order', () => {
    expect(normalize(feed([STREAM]))).toEqual(EXPECTED);
  });

  it('gives the same result when the input is split in two at every byte boundary', () => {
    for (let i = 1; i < STREAM.length; i++) {
      expect([i, normalize(feed([STREAM.subarray(0, i), STREAM.subarray(i)]))]).toEqual([i, EXPECTED]);
    }
  });

  it('gives the same result when split in three at every pair of boundaries, and byte by byte', () => {
    const small = Buffer.from(`a${START}é\x1b${END}b`);
    const expected = ['a', { paste: 'é\x1b' }, 'b'];
    for (let i = 1; i < small.length; i++) {
      for (let j = i + 1; j < small.length; j++) {
        expect(normalize(feed([small.subarray(0, i), small.subarray(i, j), small.subarray(j)]))).toEqual(expected);
      }
    }
    expect(normalize(feed([...STREAM].map((b) => Buffer.from([b]))))).toEqual(EXPECTED);
  });

  it('holds back what may start a marker until more input or a flush, and never inside a paste', () => {
    const f = new BracketedPasteFilter();
    expect(f.push('ab\x1b[20')).toEqual([{ type: 'keys', bytes: Buffer.from('ab') }]);
    expect(f.holding).toBe(true);
    expect(f.flush()).toEqual([{ type: 'keys', bytes: Buffer.from('\x1b[20') }]);
    expect(f.push(START)).toEqual([]);
    expect(f.inPaste).toBe(true);
    expect(f.push('abc\x1b[20')).toEqual([]);
    expect(f.flush()).toEqual([]); // a paste only ends at its end marker
    expect(f.push('1~')).toEqual([{ type: 'paste', text: 'abc' }]);
  });
});

function collect(): { input: TerminalInput; events: TerminalInputEvent[] } {
  const events: TerminalInputEvent[] = [];
  return { input: new TerminalInput((e) => events.push(e)), events };
}

const summary = (events: TerminalInputEvent[]) =>
  events.map((e) =>
    e.type === 'paste'
      ? `paste:${e.text}`
      : `${e.key.ctrl ? 'C-' : ''}${e.key.meta ? 'M-' : ''}${e.key.name ?? ''}${e.key.text !== undefined ? `"${e.key.text}"` : ''}`,
  );

describe('TerminalInput', () => {
  it('decodes keys and pastes in the order they were typed, pasted escapes and newlines as content', () => {
    const { input, events } = collect();
    input.write(
      Buffer.from(`ab${START}x\ry\x1b[A${END}c\r\x1b\r\x03\x18\x04\x7f\x1b[3~\x1b[5~\x1b[6~\x1b[1;5H\x1b[1;5F\t`),
    );
    input.dispose();
    expect(summary(events)).toEqual([
      'a"a"',
      'b"b"',
      'paste:x\ry\x1b[A',
      'c"c"',
      'return',
      'M-return',
      'C-c',
      'C-x',
      'C-d',
      'backspace',
      'delete',
      'pageup',
      'pagedown',
      'C-home',
      'C-end',
      'tab',
    ]);
  });

  it('reassembles characters and escape sequences split across writes', () => {
    const { input, events } = collect();
    for (const byte of Buffer.from('é\x1b[1;5H😀')) input.write(Buffer.from([byte]));
    input.dispose();
    expect(summary(events)).toEqual(['"é"', 'C-home', '"😀"']);
  });

  it('lets a lone Escape through after a short wait', async () => {
    const { input, events } = collect();
    input.write('\x1b');
    await new Promise((r) => setTimeout(r, 800));
    input.dispose();
    expect(events.map((e) => e.type === 'key' && e.key.name)).toEqual(['escape']);
  });
});
