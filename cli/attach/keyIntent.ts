import type { KeyPress } from './TerminalInput.js';

/** What a key press asks for (the key bindings of `yoi attach`, after the original's TUI). */
export type Intent =
  | { type: 'insert'; text: string }
  | { type: 'newline' }
  | { type: 'submit' }
  | { type: 'backspace' }
  | { type: 'delete' }
  | { type: 'move'; to: 'left' | 'right' | 'up' | 'down' | 'home' | 'end' }
  | { type: 'scroll'; by: 'line-up' | 'line-down' | 'page-up' | 'page-down' | 'top' | 'bottom' }
  | { type: 'complete' }
  | { type: 'interrupt' }
  | { type: 'cancel' }
  | { type: 'shutdown' }
  | { type: 'toggle-tools' };

const MOVES = new Set(['left', 'right', 'up', 'down', 'home', 'end']);

/**
 * Maps a key press to an intent: Enter submits, Alt-Enter (or Ctrl-J) inserts a newline,
 * Ctrl-C pauses or quits, Ctrl-X cancels, Ctrl-D shuts the pod down, PageUp/PageDown,
 * Shift-Up/Down and Ctrl-Home/Ctrl-End scroll, Tab completes, Ctrl-O expands tool calls.
 */
export function keyIntent(key: KeyPress): Intent | undefined {
  const { name, ctrl, meta, shift } = key;
  if (ctrl && !meta) {
    switch (name) {
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
      return meta ? { type: 'newline' } : { type: 'submit' };
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
