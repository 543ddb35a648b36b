import type { InputBuffer } from './InputBuffer.js';
import { pasteLabel } from './pasteChip.js';
import { scanTokens, type RefKind } from './refTokens.js';
import { color, safeText } from './style.js';
import wrapAnsi from 'wrap-ansi';

const PROMPT = '› ';
const REF_COLOR: Record<RefKind, (s: string) => string> = { file_ref: color.cyan, knowledge_ref: color.yellow, workflow_invoke: color.green };
const PLACEHOLDER = 'type a message · Enter sends · Alt-Enter new line · Tab completes @ # /';

/**
 * The input area's screen lines: characters, paste chips (magenta), references as they will be
 * sent (coloured), and the cursor (inverse; a chip right after the cursor is all inverse, since
 * the cursor never enters it). At most `maxLines` lines, scrolled to keep the cursor visible.
 */
export function inputLines(input: InputBuffer, width: number, maxLines: number): string[] {
  const styleAt: ((s: string) => string)[] = [];
  for (const t of scanTokens(input.atoms)) {
    if (t.type === 'ref' && t.ref !== undefined) for (let i = t.start; i < t.end; i++) styleAt[i] = REF_COLOR[t.kind];
  }
  const logical: string[] = [''];
  let cursorLine = 0;
  let beforeCursor = '';
  input.atoms.forEach((atom, i) => {
    const atCursor = i === input.cursor;
    if (atCursor) {
      cursorLine = logical.length - 1;
      beforeCursor = logical[cursorLine];
    }
    if (atom.kind === 'paste') {
      const chip = pasteLabel(atom.paste);
      logical[logical.length - 1] += atCursor ? color.inverse(color.magenta(chip)) : color.magenta(chip);
    } else if (atom.ch === '\n') {
      if (atCursor) logical[logical.length - 1] += color.inverse(' ');
      logical.push('');
    } else {
      const ch = safeText(atom.ch);
      const styled = styleAt[i] ? styleAt[i](ch) : ch;
      logical[logical.length - 1] += atCursor ? color.inverse(ch) : styled;
    }
  });
  if (input.cursor >= input.length) {
    cursorLine = logical.length - 1;
    beforeCursor = logical[cursorLine];
    logical[cursorLine] += color.inverse(' ') + (input.length === 0 ? color.dim(PLACEHOLDER) : '');
  }

  const inner = Math.max(1, width - PROMPT.length);
  const wrap = (s: string) => (s === '' ? [''] : wrapAnsi(s, inner, { hard: true, wordWrap: false, trim: false }).split('\n'));
  const lines: string[] = [];
  let cursorRow = 0;
  logical.forEach((line, n) => {
    if (n === cursorLine) cursorRow = lines.length + Math.max(0, wrap(`${beforeCursor}x`).length - 1);
    for (const part of wrap(line)) lines.push((lines.length === 0 ? color.bold(PROMPT) : ' '.repeat(PROMPT.length)) + part);
  });
  if (lines.length <= maxLines) return lines;
  const start = Math.max(0, Math.min(cursorRow - maxLines + 1, lines.length - maxLines));
  return lines.slice(start, start + maxLines);
}
