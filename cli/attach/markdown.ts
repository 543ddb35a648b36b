import { Marked, type MarkedExtension, type Token, type Tokens } from 'marked';
import { markedTerminal } from 'marked-terminal';
import { color, colorsEnabled } from './style.js';

/** Marks a thematic break; the line is drawn as wide as the screen when it is wrapped. */
export const RULE = '\u0000rule\u0000';
/** List and code indentation. */
const TAB = 2;

const identity = (s: string) => s;

/**
 * The markdown renderer of the transcript: marked for the grammar, marked-terminal for the
 * terminal forms (headings keep their `#` so levels read without colour; lists, quotes, tables;
 * code blocks highlighted by cli-highlight when a language is named). Styles come from
 * picocolors, so NO_COLOR turns them all off. Output is independent of the width: lines are
 * wrapped afterwards.
 */
const md = new Marked(
  markedTerminal(
    {
      code: color.yellow,
      blockquote: (s: string) => color.dim(color.italic(s.replace(/^ {2}/gmu, '│ '))),
      html: color.dim,
      heading: (s: string) => color.bold(color.green(s)),
      firstHeading: (s: string) => color.bold(color.magenta(s)),
      hr: identity,
      listitem: identity,
      table: identity,
      paragraph: identity,
      strong: color.bold,
      em: color.italic,
      codespan: color.yellow,
      del: (s: string) => color.dim(color.strikethrough(s)),
      link: color.blue,
      href: (s: string) => color.underline(color.blue(s)),
      text: identity,
      emoji: false,
      tab: TAB,
      showSectionPrefix: true,
      reflowText: false,
      unescape: true,
      // cli-table3 colours its borders and headers itself.
      tableOptions: { style: { head: [], border: [] } },
    },
    {},
  ) as unknown as MarkedExtension,
  {
    renderer: {
      // Without a language (or colours) a code block is plain: auto-detection tries every
      // language, too slow to repeat while a block streams.
      code(token: Tokens.Code) {
        if (token.lang && colorsEnabled) return false;
        return `${token.text.replace(/^/gmu, ' '.repeat(TAB))}\n\n`;
      },
      // Links as text and address; never OSC 8 sequences, which the wrapper would cut.
      link(token: Tokens.Link) {
        const text = this.parser.parseInline(token.tokens);
        const href = color.underline(color.blue(token.href));
        return text === token.href || text === '' ? href : `${color.blue(text)} (${href})`;
      },
      hr() {
        return `${RULE}\n\n`;
      },
    },
  },
);

/** Splits markdown into top-level tokens (their `raw`s add up to the source). */
export function lexMarkdown(src: string): Token[] {
  return md.lexer(src);
}

/** The screen lines of one top-level token (no trailing blank lines; `[]` for blank space). */
export function renderToken(token: Token): string[] {
  if (token.type === 'space' || token.type === 'def') return [];
  let out = md.parser([token]).replace(/\n+$/u, '');
  if (token.type === 'list' && token.ordered && Number(token.start) > 1) out = renumber(out, Number(token.start) - 1);
  return out === '' ? [] : out.split('\n');
}

/** marked-terminal numbers every ordered list from 1; a list that starts at 3 keeps its 3. */
function renumber(out: string, by: number): string {
  const top = new RegExp(`^( {${TAB}})(\\d+)\\. `, 'gmu');
  return out.replace(top, (_m, indent: string, n: string) => `${indent}${Number(n) + by}. `);
}

/** How many line breaks end `raw` (a blank line between blocks is two). */
export function trailingNewlines(raw: string): number {
  const m = /\n*$/u.exec(raw.replace(/[ \t]+$/u, ''));
  return m ? m[0].length : 0;
}
