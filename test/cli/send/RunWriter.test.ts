import { describe, expect, it } from '@jest/globals';
import { RunWriter } from '../../../cli/send/RunWriter.js';
import type { Piece } from '../../../cli/send/renderRun.js';

function sink() {
  const chunks: string[] = [];
  return { chunks, stream: { write: (s: string) => chunks.push(s) } as unknown as NodeJS.WritableStream };
}

const pieces: Piece[] = [
  { to: 'out', spans: [{ text: 'reply \u001b]0;pwned\u0007 text\r\n', style: 'reply' }] },
  {
    to: 'out',
    spans: [
      { text: '✓', style: 'ok' },
      { text: ' Read', style: 'name' },
      { text: ' → 6 lines', style: 'dim' },
      { text: '\n', style: 'reply' },
    ],
  },
  { to: 'err', spans: [{ text: '[warn] careful\n', style: 'warn' }] },
];

describe('RunWriter', () => {
  it('piped: the text exactly as it came, no colour', () => {
    const out = sink();
    const err = sink();
    const w = new RunWriter({ out: out.stream, err: err.stream, terminal: { out: false, err: false }, color: false });
    w.write(pieces);
    w.stop();
    expect(out.chunks.join('')).toBe('reply \u001b]0;pwned\u0007 text\r\n✓ Read → 6 lines\n');
    expect(err.chunks.join('')).toBe('[warn] careful\n');
  });

  it('on a terminal: colours, and control characters from the pod defused', () => {
    const out = sink();
    const err = sink();
    const w = new RunWriter({ out: out.stream, err: err.stream, terminal: { out: true, err: true }, color: true });
    w.write(pieces);
    w.stop();
    expect(out.chunks).toEqual([
      'reply \ufffd]0;pwned\ufffd text\n\u001b[32m✓\u001b[39m\u001b[1m Read\u001b[22m\u001b[2m → 6 lines\u001b[22m\n',
    ]);
    expect(err.chunks[0]).toBe('\u001b[33m[warn] careful\n\u001b[39m');
  });

  it('on a terminal with NO_COLOR: defused, but no colour', () => {
    const out = sink();
    const w = new RunWriter({ out: out.stream, err: sink().stream, terminal: { out: true, err: true }, color: false });
    w.write(pieces);
    w.stop();
    expect(out.chunks.join('')).toBe('reply \ufffd]0;pwned\ufffd text\n✓ Read → 6 lines\n');
  });

  it('defuses per stream: a terminal stdout with stderr piped, and the other way round', () => {
    const out = sink();
    const err = sink();
    const alert: Piece = { to: 'err', spans: [{ text: '[warn] \u001b]52;c;cm0=\u0007\n', style: 'warn' }] };
    const toTerminal = new RunWriter({
      out: out.stream,
      err: err.stream,
      terminal: { out: true, err: false },
      color: false,
    });
    toTerminal.write([...pieces, alert]);
    toTerminal.raw('out', '{"t":"\\u001b]0;x\u009b"}\n');
    toTerminal.stop();
    expect(out.chunks.join('')).toBe('reply \ufffd]0;pwned\ufffd text\n✓ Read → 6 lines\n{"t":"\\u001b]0;x\\u009b"}\n');
    expect(err.chunks.join('')).toBe('[warn] careful\n[warn] \u001b]52;c;cm0=\u0007\n');
    const [out2, err2] = [sink(), sink()];
    const errTerminal = new RunWriter({
      out: out2.stream,
      err: err2.stream,
      terminal: { out: false, err: true },
      color: false,
    });
    errTerminal.write([...pieces, alert]);
    errTerminal.stop();
    expect(out2.chunks.join('')).toBe('reply \u001b]0;pwned\u0007 text\r\n✓ Read → 6 lines\n');
    expect(err2.chunks.join('')).toBe('[warn] careful\n[warn] \ufffd]52;c;cm0=\ufffd\n');
  });

  it('writes what one read brought in one write per stream, at the end of that read, in order', async () => {
    const both: string[] = [];
    const out = { write: (s: string) => both.push(`out:${s}`) } as unknown as NodeJS.WritableStream;
    const err = { write: (s: string) => both.push(`err:${s}`) } as unknown as NodeJS.WritableStream;
    const w = new RunWriter({ out, err, terminal: { out: false, err: false }, color: false });
    const text = (t: string): Piece[] => [{ to: 'out', spans: [{ text: t, style: 'reply' }] }];
    // One read from the pod: its events are handled in one go.
    w.write(text('a'));
    w.write(text('b'));
    expect(both).toEqual([]);
    await Promise.resolve();
    expect(both).toEqual(['out:ab']); // written before the next read is even looked at
    // The next read: text, an alert, more text — the alert stays between them.
    w.write(text('c'));
    w.write([{ to: 'err', spans: [{ text: '[warn] x\n', style: 'warn' }] }]);
    w.write(text('d'));
    w.raw('out', 'e');
    await new Promise((r) => setImmediate(r));
    expect(both).toEqual(['out:ab', 'out:c', 'err:[warn] x\n', 'out:de']);
  });
});
