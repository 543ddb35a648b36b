import type { KeyPress } from './TerminalInput.js';

/** What a key press asks for (the key bindings of `yoi attach`, after the original's TUI). */
export type Intent =
  | { type: 'insert'; text: string }
  | { type: 'newline' }
  | { type: 'submit' }
  | { type: 'backspace' }
  | { type: 'delete' }
  | { type: 'move'; to: 'left' | 'right' | 'up' | 'down' | 'home' | 'end' | 'wordLeft' | 'wordRight' }
  /** Deletes from the cursor to a boundary (see InputBuffer.boundary); Ctrl-Y puts it back. */
  | { type: 'kill'; to: 'word-left' | 'word-right' | 'space-word-left' | 'line-start' | 'line-end' }
  | { type: 'yank' }
  /** Earlier or later inputs (Up/Down at the first/last line do the same). */
  | { type: 'history'; dir: 'prev' | 'next' }
  | { type: 'escape' }
  | { type: 'scroll'; by: 'line-up' | 'line-down' | 'page-up' | 'page-down' | 'top' | 'bottom' }
  | { type: 'complete' }
  | { type: 'interrupt' }
  | { type: 'cancel' }
  | { type: 'shutdown' }
  | { type: 'toggle-tools' };

const MOVES = new Set(['left', 'right', 'up', 'down', 'home', 'end']);

/**
 * Maps a key press to an intent: Enter submits, Alt-Enter (or Ctrl-J) inserts a newline,
 * Ctrl-C pauses or quits, Ctrl-X cancels, Ctrl-D shuts the pod down (after asking),
 * PageUp/PageDown, Shift-Up/Down and Ctrl-Home/Ctrl-End scroll, Tab completes, Ctrl-O expands
 * details, Up/Down (Ctrl-P/N) recall earlier inputs. Editing follows readline: Ctrl-A/E line
 * start/end, Alt-B/F (Ctrl- or Alt-Left/Right) by words, Ctrl-U/K delete to the line's
 * start/end, Ctrl-W the word before, Alt-D the word after, Alt-Backspace the word before,
 * Ctrl-Y yanks it back.
 */
export function keyIntent(key: KeyPress): Intent | undefined {
  const { name, ctrl, meta, shift } = key;
  if (meta && !ctrl) {
    switch (name) {
      case 'b':
      case 'left':
        return { type: 'move', to: 'wordLeft' };
      case 'f':
      case 'right':
        return { type: 'move', to: 'wordRight' };
      case 'd':
        return { type: 'kill', to: 'word-right' };
      case 'backspace':
        return { type: 'kill', to: 'word-left' };
      case 'return':
        return { type: 'newline' };
      case 'escape': // readline reports a lone Escape as meta
        return { type: 'escape' };
    }
    return undefined;
  }
  if (ctrl && !meta) {
    switch (name) {
      case 'u':
        return { type: 'kill', to: 'line-start' };
      case 'k':
        return { type: 'kill', to: 'line-end' };
      case 'w':
        return { type: 'kill', to: 'space-word-left' };
      case 'y':
        return { type: 'yank' };
      case 'p':
        return { type: 'history', dir: 'prev' };
      case 'n':
        return { type: 'history', dir: 'next' };
      case 'left':
        return { type: 'move', to: 'wordLeft' };
      case 'right':
        return { type: 'move', to: 'wordRight' };
      case 'c':
        return { type: 'interrupt' };
      case 'x':
        return { type: 'cancel' };
      case 'd':
        return { type: 'shutdown' };
      case 'o':
        return { type: 'toggle-tools' };
      case 'home':
        return { type: 'scroll', by: 'top' };
      case 'end':
        return { type: 'scroll', by: 'bottom' };
      case 'a':
        return { type: 'move', to: 'home' };
      case 'e':
        return { type: 'move', to: 'end' };
      case 'h':
        return { type: 'backspace' };
    }
    return undefined;
  }
  switch (name) {
    case 'return':
      return { type: 'submit' };
    case 'escape':
      return { type: 'escape' };
    case 'enter':
      return { type: 'newline' };
    case 'backspace':
      return { type: 'backspace' };
    case 'delete':
      return { type: 'delete' };
    case 'tab':
      return shift ? undefined : { type: 'complete' };
    case 'pageup':
      return { type: 'scroll', by: 'page-up' };
    case 'pagedown':
      return { type: 'scroll', by: 'page-down' };
  }
  if (name && MOVES.has(name)) {
    if (shift && name === 'up') return { type: 'scroll', by: 'line-up' };
    if (shift && name === 'down') return { type: 'scroll', by: 'line-down' };
    return { type: 'move', to: name as 'left' };
  }
  if (key.text !== undefined) return { type: 'insert', text: key.text };
  return undefined;
}
