import { beforeAll, describe, expect, it } from '@jest/globals';
import { stripVTControlCharacters } from 'node:util';
import { loadMarkdown, markdownLines, markdownStats } from '../../../cli/attach/markdownLines.js';

beforeAll(() => loadMarkdown());

const plain = (lines: string[]) => lines.map((l) => stripVTControlCharacters(l).trimEnd());
let nextId = 1;
/** Streams `text` in chunks of `size`, returning the lines after each delta and at the end. */
function stream(text: string, size: number, width = 60): string[][] {
  const id = nextId++;
  const frames: string[][] = [];
  for (let n = size; n < text.length + size; n += size) frames.push(markdownLines(id, text.slice(0, n), false, width));
  frames.push(markdownLines(id, text, true, width));
  return frames;
}

const REPLY = [
  '# Plan',
  'Some **bold** and *em* text with `code`.',
  '',
  '## Steps',
  '',
  '1. first',
  '2. second',
  '   - nested',
  '',
  '```ts',
  'const answer: number = 42;',
  '```',
  '',
  '> quoted',
  '',
  '---',
  'done',
].join('\n');

describe('assistant replies as markdown', () => {
  it("renders headings (with their #), emphasis, lists, code blocks, quotes and rules, with the reply's own blank lines", () => {
    const lines = markdownLines(nextId++, REPLY, true, 40);
    expect(plain(lines)).toEqual([
      '  # Plan',
      '  Some bold and em text with code.',
      '',
      '  ## Steps',
      '',
      '    1. first',
      '    2. second',
      '      * nested',
      '',
      '    const answer: number = 42;',
      '',
      '  │ quoted',
      '',
      `  ${'─'.repeat(38)}`,
      '  done',
    ]);
    const styled = lines.join('\n');
    expect(styled).toContain('\x1b[1m'); // bold (the heading, **bold**)
    expect(styled).toContain('\x1b[3m'); // italic
    expect(lines[1]).not.toContain('**');
  });

  it('wraps long lines to the width instead of cutting them', () => {
    const lines = plain(markdownLines(nextId++, `${'word '.repeat(30)}end`, true, 30));
    expect(lines.length).toBeGreaterThan(4);
    expect(lines.every((l) => l.length <= 30)).toBe(true);
    expect(lines.join(' ').replace(/\s+/g, ' ').trim()).toBe(`${'word '.repeat(30)}end`);
  });

  it('renders a streamed reply exactly as the whole reply, whatever the chunking', () => {
    const whole = plain(markdownLines(nextId++, REPLY, true, 60));
    for (const size of [1, 3, 7, 50]) {
      const frames = stream(REPLY, size);
      expect(plain(frames[frames.length - 1])).toEqual(whole);
      expect(plain(frames[frames.length - 2])).toEqual(whole); // the last delta, before text_done
    }
  });

  it('shows a half-finished code block as code from its first line on, so it does not flip while it streams', () => {
    const src = 'Here:\n\n```python\ndef f(x):\n    return x * 2\n';
    const frames = stream(src, 1).slice(0, -1);
    const opened = frames.findIndex((f) => plain(f).includes('    def f(x):'));
    expect(opened).toBeGreaterThan(0);
    for (const f of frames.slice(opened)) {
      const lines = plain(f);
      expect(lines.slice(0, 2)).toEqual(['  Here:', '']);
      expect(lines[2]).toBe('    def f(x):');
      expect(lines.join('\n')).not.toContain('```');
    }
  });

  it('renders each settled block once while streaming (work grows with the reply, not with its square)', () => {
    const paragraphs = Array.from({ length: 120 }, (_, i) => `Paragraph ${i} with *some* text.`).join('\n\n');
    const before = markdownStats.tokensRendered;
    const frames = stream(paragraphs, 4);
    const rendered = markdownStats.tokensRendered - before;
    // ~2 tokens per paragraph (text, blank) settle once; the open one is rendered once per delta.
    expect(frames.length).toBeGreaterThan(800);
    expect(rendered).toBeLessThan(frames.length + 3 * 240);
    expect(plain(frames[frames.length - 1]).filter((l) => l.startsWith('  Paragraph'))).toHaveLength(120);
  });

  it('keeps control characters from the pod off the screen', () => {
    const lines = markdownLines(nextId++, 'evil \x1b]0;title\x07 and \x1b[2J done', true, 60);
    expect(lines.join('')).not.toMatch(/\x1b\]|\x1b\[2J|\x07/);
  });
});

describe('replies too big or too deep for markdown', () => {
  const MiB = 1024 * 1024;

  it('shows a 9 MiB one-word reply plain, cut at 256 KiB with a note, instead of overflowing the stack in marked', () => {
    const text = 'b'.repeat(9 * MiB);
    for (const done of [false, true]) {
      const lines = plain(markdownLines(nextId++, text, done, 150));
      expect(lines[0]).toBe(`  ${'b'.repeat(148)}`);
      // 256 KiB of text at 148 columns, then the note: nothing scales with the 9 MiB.
      expect(lines).toHaveLength(Math.ceil((256 * 1024) / 148) + 1);
      expect(lines[lines.length - 1]).toBe(
        `  … ${(9 * MiB - 256 * 1024).toLocaleString('en-US')} more characters not shown (yoi history prints the whole message)`,
      );
    }
  });

  it('keeps markdown up to the cap', () => {
    const under = `**Title**\n\n${'word '.repeat(50_000)}`;
    const over = `**Title**\n\n${'word '.repeat(60_000)}`;
    expect(under.length).toBeLessThan(256 * 1024);
    expect(over.length).toBeGreaterThan(256 * 1024);
    expect(plain(markdownLines(nextId++, under, true, 80))[0]).toBe('  Title');
    expect(plain(markdownLines(nextId++, over, true, 80))[0]).toBe('  **Title**');
  });

  it('shows a reply marked cannot lex as plain text (64 Ki nested quotes overflow its lexer)', () => {
    const id = nextId++;
    const text = '>'.repeat(64 * 1024);
    const lines = plain(markdownLines(id, text, false, 100));
    expect(lines[0]).toBe(`  ${'>'.repeat(98)}`);
    expect(lines.join('').replace(/\s/g, '')).toBe(text);
    expect(plain(markdownLines(id, `${text} more`, true, 100)).join('')).toContain('> more');
  });
});
