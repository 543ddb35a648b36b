import type { InputBuffer } from './InputBuffer.js';
import { pasteLabel } from './pasteChip.js';
import { scanTokens } from './refTokens.js';
import { SegmentKinds } from './SegmentKinds.js';
import { chipLabel, refColor } from './segmentText.js';
import { color, cursor } from './style.js';
import { safeText } from '../safeText.js';
import wrapAnsi from 'wrap-ansi';

const PROMPT = '› ';

/**
 * The input area's screen lines: characters, chips (pastes magenta, other segments blue),
 * references as they will be sent (in their kind's colour), and the cursor (reverse video; a
 * chip right after the cursor is all reversed, since the cursor never enters it). At most
 * `maxLines` lines, scrolled to keep the cursor visible.
 */
export function inputLines(
  input: InputBuffer,
  width: number,
  maxLines: number,
  kinds: SegmentKinds = SegmentKinds.builtIn,
): string[] {
  const styleAt: ((s: string) => string)[] = [];
  for (const t of scanTokens(input.atoms, kinds)) {
    if (t.type === 'ref' && t.ref !== undefined) for (let i = t.start; i < t.end; i++) styleAt[i] = refColor(t.kind);
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
    if (atom.kind !== 'char') {
      const chip =
        atom.kind === 'paste'
          ? color.magenta(pasteLabel(atom.paste))
          : color.blue(safeText(chipLabel(atom.segment, kinds)));
      logical[logical.length - 1] += atCursor ? cursor(chip) : chip;
    } else if (atom.ch === '\n') {
      if (atCursor) logical[logical.length - 1] += cursor(' ');
      logical.push('');
    } else {
      const ch = safeText(atom.ch);
      const styled = styleAt[i] ? styleAt[i](ch) : ch;
      logical[logical.length - 1] += atCursor ? cursor(ch) : styled;
    }
  });
  if (input.cursor >= input.length) {
    cursorLine = logical.length - 1;
    beforeCursor = logical[cursorLine];
    logical[cursorLine] += cursor(' ') + (input.length === 0 ? color.dim(placeholder(kinds)) : '');
  }

  const inner = Math.max(1, width - PROMPT.length);
  const wrap = (s: string) =>
    s === '' ? [''] : wrapAnsi(s, inner, { hard: true, wordWrap: false, trim: false }).split('\n');
  const lines: string[] = [];
  let cursorRow = 0;
  logical.forEach((line, n) => {
    if (n === cursorLine) cursorRow = lines.length + Math.max(0, wrap(`${beforeCursor}x`).length - 1);
    for (const part of wrap(line))
      lines.push((lines.length === 0 ? color.bold(PROMPT) : ' '.repeat(PROMPT.length)) + part);
  });
  if (lines.length <= maxLines) return lines;
  const start = Math.max(0, Math.min(cursorRow - maxLines + 1, lines.length - maxLines));
  return lines.slice(start, start + maxLines);
}

function placeholder(kinds: SegmentKinds): string {
  const sigils = kinds.sigils.map((s) => s.sigil).join(' ');
  return `type a message · Enter sends · Alt-Enter new line${sigils ? ` · Tab completes ${sigils}` : ''}`;
}
