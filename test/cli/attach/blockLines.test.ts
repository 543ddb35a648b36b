import { describe, expect, it } from '@jest/globals';
import { stripVTControlCharacters } from 'node:util';
import { blockLines } from '../../../cli/attach/blockLines.js';
import { SegmentKinds } from '../../../cli/attach/SegmentKinds.js';

const plain = (lines: string[]) => lines.map((l) => stripVTControlCharacters(l).trimEnd());
const MiB = 1024 * 1024;
const NOTE = (n: number) =>
  `  … ${n.toLocaleString('en-US')} more characters not shown (yoi history prints the whole message)`;

describe('a user message of megabytes', () => {
  it('shows the first 256 KiB of a 9 MiB history message and a note, not 9 MiB wrapped into rows', () => {
    const lines = plain(
      blockLines({ kind: 'user', id: 1, text: 'a'.repeat(9 * MiB) }, 150, false, SegmentKinds.builtIn),
    );
    expect(lines[1]).toBe(`❯ ${'a'.repeat(148)}`);
    expect(lines).toHaveLength(1 + Math.ceil((256 * 1024) / 148) + 1);
    expect(lines[lines.length - 1]).toBe(NOTE(9 * MiB - 256 * 1024));
  });

  it('lets typed text segments share the 256 KiB; a paste stays a chip', () => {
    const block = {
      kind: 'user' as const,
      id: 2,
      segments: [
        { kind: 'text' as const, content: 'x'.repeat(200 * 1024) },
        { kind: 'paste' as const, id: 1, chars: 9 * MiB, lines: 1, content: 'p'.repeat(9 * MiB) },
        { kind: 'text' as const, content: 'y'.repeat(100 * 1024) },
      ],
    };
    const lines = plain(blockLines(block, 100, false, SegmentKinds.builtIn));
    const shown = lines.slice(0, -1).join('');
    expect(shown.match(/x/g)).toHaveLength(200 * 1024);
    expect(shown.match(/y/g)).toHaveLength(56 * 1024);
    expect(lines.join('\n')).toMatch(/\[Clipboard\s+#1\s+\|\s+9437184\s+chars,\s+1\s+lines\]/);
    expect(shown).not.toContain('ppp');
    expect(lines[lines.length - 1]).toBe(NOTE(44 * 1024));
  });
});
