import { describe, expect, it } from '@jest/globals';
import { keyIntent, type Intent } from '../../../cli/attach/keyIntent.js';
import { TerminalInput } from '../../../cli/attach/TerminalInput.js';

/** The intents the bytes a terminal sends for each key produce. */
function intents(bytes: string): (Intent | undefined)[] {
  const out: (Intent | undefined)[] = [];
  const input = new TerminalInput((e) =>
    out.push(e.type === 'key' ? keyIntent(e.key) : { type: 'insert', text: `<paste ${e.text}>` }),
  );
  input.write(bytes);
  input.dispose();
  return out;
}

describe('key bindings', () => {
  it('map the keys of the original TUI', () => {
    const keys: [string, Intent | undefined][] = [
      ['a', { type: 'insert', text: 'a' }],
      ['\r', { type: 'submit' }],
      ['\x1b\r', { type: 'newline' }],
      ['\n', { type: 'newline' }],
      ['\x7f', { type: 'backspace' }],
      ['\x1b[3~', { type: 'delete' }],
      ['\x03', { type: 'interrupt' }],
      ['\x18', { type: 'cancel' }],
      ['\x04', { type: 'shutdown' }],
      ['\x0f', { type: 'toggle-tools' }],
      ['\x1b[5~', { type: 'scroll', by: 'page-up' }],
      ['\x1b[6~', { type: 'scroll', by: 'page-down' }],
      ['\x1b[1;5H', { type: 'scroll', by: 'top' }],
      ['\x1b[1;5F', { type: 'scroll', by: 'bottom' }],
      ['\x1b[1;2A', { type: 'scroll', by: 'line-up' }],
      ['\x1b[1;2B', { type: 'scroll', by: 'line-down' }],
      ['\x1b[D', { type: 'move', to: 'left' }],
      ['\x1b[A', { type: 'move', to: 'up' }],
      ['\x1b[H', { type: 'move', to: 'home' }],
      ['\x1b[F', { type: 'move', to: 'end' }],
      ['\t', { type: 'complete' }],
      ['\x01', { type: 'move', to: 'home' }],
      ['\x05', { type: 'move', to: 'end' }],
      ['\x1bb', { type: 'move', to: 'wordLeft' }],
      ['\x1bf', { type: 'move', to: 'wordRight' }],
      ['\x1b[1;5D', { type: 'move', to: 'wordLeft' }],
      ['\x1b[1;3C', { type: 'move', to: 'wordRight' }],
      ['\x15', { type: 'kill', to: 'line-start' }],
      ['\x0b', { type: 'kill', to: 'line-end' }],
      ['\x17', { type: 'kill', to: 'space-word-left' }],
      ['\x1b\x7f', { type: 'kill', to: 'word-left' }],
      ['\x1bd', { type: 'kill', to: 'word-right' }],
      ['\x19', { type: 'yank' }],
      ['\x10', { type: 'history', dir: 'prev' }],
      ['\x0e', { type: 'history', dir: 'next' }],
      ['\x1b[B', { type: 'move', to: 'down' }],
      ['\x1bx', undefined], // Alt-x: nothing
      ['\x1b[15~', undefined], // F5: nothing
    ];
    for (const [bytes, intent] of keys)
      expect([JSON.stringify(bytes), intents(bytes)]).toEqual([JSON.stringify(bytes), [intent]]);
  });

  it("read a lone Escape (after the terminal's escape timeout) as Escape", async () => {
    const out: (Intent | undefined)[] = [];
    const input = new TerminalInput((e) => out.push(e.type === 'key' ? keyIntent(e.key) : undefined));
    input.write('\x1b');
    for (let i = 0; i < 200 && out.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    input.dispose();
    expect(out).toEqual([{ type: 'escape' }]);
  });

  it('keep a pasted Enter or Ctrl-C as text inside the paste', () => {
    expect(intents('x\x1b[200~a\r\x03b\x1b[201~\r')).toEqual([
      { type: 'insert', text: 'x' },
      { type: 'insert', text: '<paste a\r\x03b>' },
      { type: 'submit' },
    ]);
  });
});
