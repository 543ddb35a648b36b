import { describe, expect, it } from '@jest/globals';
import { RunWriter } from '../../../cli/send/RunWriter.js';
import type { Piece } from '../../../cli/send/renderRun.js';

function sink() {
  const chunks: string[] = [];
  return { chunks, stream: { write: (s: string) => chunks.push(s) } as unknown as NodeJS.WritableStream };
}

const pieces: Piece[] = [
  { to: 'out', spans: [{ text: 'reply \u001b]0;pwned\u0007 text\r\n', style: 'reply' }] },
  { to: 'out', spans: [{ text: '✓', style: 'ok' }, { text: ' Read', style: 'name' }, { text: ' → 6 lines', style: 'dim' }, { text: '\n', style: 'reply' }] },
  { to: 'err', spans: [{ text: '[warn] careful\n', style: 'warn' }] },
];

describe('RunWriter', () => {
  it('piped: the text exactly as it came, no colour', () => {
    const out = sink();
    const err = sink();
    new RunWriter({ out: out.stream, err: err.stream, interactive: false, color: false }).write(pieces);
    expect(out.chunks.join('')).toBe('reply \u001b]0;pwned\u0007 text\r\n✓ Read → 6 lines\n');
    expect(err.chunks.join('')).toBe('[warn] careful\n');
  });

  it('on a terminal: colours, and control characters from the pod defused', () => {
    const out = sink();
    const err = sink();
    new RunWriter({ out: out.stream, err: err.stream, interactive: true, color: true }).write(pieces);
    expect(out.chunks[0]).toBe('reply \ufffd]0;pwned\ufffd text\n');
    expect(out.chunks[1]).toBe('\u001b[32m✓\u001b[39m\u001b[1m Read\u001b[22m\u001b[2m → 6 lines\u001b[22m\n');
    expect(err.chunks[0]).toBe('\u001b[33m[warn] careful\n\u001b[39m');
  });

  it('on a terminal with NO_COLOR: defused, but no colour', () => {
    const out = sink();
    new RunWriter({ out: out.stream, err: sink().stream, interactive: true, color: false }).write(pieces);
    expect(out.chunks.join('')).toBe('reply \ufffd]0;pwned\ufffd text\n✓ Read → 6 lines\n');
  });
});
