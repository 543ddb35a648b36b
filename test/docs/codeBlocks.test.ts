import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The plugin guides show real code: every ts/js/json block is a run of consecutive lines of a
 * file in the repository (indentation aside), so a guide cannot drift from the example package or
 * the code it quotes. Shell blocks and output are prose, not checked.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCES = ['examples', 'plugins', 'core', 'testing', 'test'];
const CHECKED = /^(ts|js|json)$/;

interface Block {
  doc: string;
  line: number;
  lang: string;
  lines: string[];
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory())
      return e.name === 'node_modules' || e.name === 'dist' || e.name === 'fixtures' ? [] : sourceFiles(full);
    return /\.(ts|tsx|js|mjs|json)$/.test(e.name) ? [full] : [];
  });
}

/** The fenced blocks of `text` (optionally only those between two headings). */
function blocks(doc: string, text: string): Block[] {
  const out: Block[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    out.push({ doc, line: start + 1, lang: open[1], lines: body });
  }
  return out;
}

function section(text: string, from: string, to: string): string {
  const start = text.indexOf(from);
  const end = text.indexOf(to, start);
  if (start < 0 || end < 0) throw new Error(`section ${from} … ${to} not found`);
  return text.slice(start, end);
}

const trimmed = (lines: readonly string[]) => lines.map((l) => l.trim()).filter((l) => l !== '');
const corpus = SOURCES.flatMap((d) => sourceFiles(path.join(ROOT, d))).map((file) => ({
  file: path.relative(ROOT, file),
  lines: trimmed(fs.readFileSync(file, 'utf8').split('\n')),
}));

/** The first file holding `wanted` as consecutive lines. */
function foundIn(wanted: readonly string[]): string | undefined {
  for (const { file, lines } of corpus) {
    for (let i = 0; i + wanted.length <= lines.length; i++) {
      if (lines[i] === wanted[0] && wanted.every((w, k) => lines[i + k] === w)) return file;
    }
  }
  return undefined;
}

const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const guides: Block[] = [
  ...blocks('docs/writing-a-plugin.md', read('docs/writing-a-plugin.md')),
  ...blocks('docs/writing-a-resolver-plugin.md', read('docs/writing-a-resolver-plugin.md')),
  ...blocks(
    'CONTRIBUTING.md (Writing a plugin)',
    section(read('CONTRIBUTING.md'), '## Writing a plugin', '## Test tiers'),
  ),
];
const code = guides.filter((b) => CHECKED.test(b.lang));

describe('code in the plugin guides', () => {
  it('has code blocks to check, each with a language', () => {
    expect(code.length).toBeGreaterThan(15);
    expect(guides.filter((b) => b.lang === '').map((b) => `${b.doc}:${b.line}`)).toEqual([]);
  });

  it.each(code.map((b) => [`${b.doc}:${b.line}`, b] as const))('%s is real code', (_where, block) => {
    const wanted = trimmed(block.lines);
    expect(wanted.length).toBeGreaterThan(0);
    expect({ block: wanted.join('\n'), foundIn: foundIn(wanted) ?? 'nowhere' }).toEqual({
      block: wanted.join('\n'),
      foundIn: expect.not.stringMatching(/^nowhere$/),
    });
  });

  it('finds no block of made-up code (the check itself can fail)', () => {
    expect(foundIn(["export const tickets = definePlugin({ name: 'made-up' });"])).toBeUndefined();
    expect(foundIn(trimmed(code[0].lines))).toBeDefined();
  });
});
