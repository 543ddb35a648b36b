import type { PasteSegment } from '../../core/protocol/index.js';
import { pasteSegment } from '../inputSegments.js';

/** Paste ids count from 1 for the whole life of the client process (reconnects included). */
let nextId = 1;

/**
 * A bracketed paste as a `paste` segment with the next id. Terminals send pasted line breaks
 * as CR (tmux, xterm) or CRLF; they become LF so the line count and the model see real lines.
 */
export function newPaste(raw: string): PasteSegment {
  const content = raw.replace(/\r\n?/g, '\n');
  return pasteSegment(content, nextId++) as PasteSegment;
}

/** The chip a paste is shown as: `[Clipboard #N | X chars, Y lines]`. */
export function pasteLabel(paste: Pick<PasteSegment, 'id' | 'chars' | 'lines'>): string {
  return `[Clipboard #${paste.id} | ${paste.chars} chars, ${paste.lines} lines]`;
}
