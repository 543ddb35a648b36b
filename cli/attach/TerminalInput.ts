import { EventEmitter } from 'node:events';
import readline from 'node:readline';
import { BracketedPasteFilter } from './BracketedPasteFilter.js';

/** One key press, as Node's readline decodes it (`name` is absent for plain characters). */
export interface KeyPress {
  name?: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
  /** The bytes the terminal sent, decoded. */
  sequence: string;
  /** The character typed, for printable keys. */
  text?: string;
}

export type TerminalInputEvent = { type: 'key'; key: KeyPress } | { type: 'paste'; text: string };

/** How long bytes that might begin a paste marker (a lone Escape) wait for the rest. */
const HOLD_MS = 40;

/**
 * Raw terminal bytes in, key presses and whole pastes out, in the order they were typed.
 * Pastes are cut out first by {@link BracketedPasteFilter}; the remaining bytes go through
 * Node's own key decoder (`readline.emitKeypressEvents`), which runs synchronously per chunk
 * and reassembles characters and escape sequences split across chunks.
 */
export class TerminalInput {
  private readonly filter = new BracketedPasteFilter();
  private readonly decoder = new EventEmitter();
  private holdTimer: NodeJS.Timeout | undefined;

  constructor(private readonly onInput: (event: TerminalInputEvent) => void) {
    // The decoder only listens to 'data' and emits 'keypress'; a bare emitter keeps it synchronous,
    // so keys and pastes come out in the order they were typed.
    readline.emitKeypressEvents(this.decoder as unknown as NodeJS.ReadableStream);
    this.decoder.on('keypress', (text: string | undefined, key: Partial<KeyPress> | undefined) => {
      const sequence = key?.sequence ?? text ?? '';
      const press: KeyPress = {
        name: key?.name,
        ctrl: key?.ctrl ?? false,
        meta: key?.meta ?? false,
        shift: key?.shift ?? false,
        sequence,
      };
      if (text !== undefined && isPrintable(text) && !press.ctrl && !press.meta) press.text = text;
      this.onInput({ type: 'key', key: press });
    });
  }

  write(chunk: Buffer | string): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
    this.deliver(this.filter.push(chunk));
    if (this.filter.holding) {
      this.holdTimer = setTimeout(() => {
        this.holdTimer = undefined;
        this.deliver(this.filter.flush());
      }, HOLD_MS);
      this.holdTimer.unref?.();
    }
  }

  dispose(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = undefined;
  }

  private deliver(pieces: ReturnType<BracketedPasteFilter['push']>): void {
    for (const piece of pieces) {
      if (piece.type === 'paste') this.onInput({ type: 'paste', text: piece.text });
      else this.decoder.emit('data', piece.bytes);
    }
  }
}

/** One printable character (not a control character). */
function isPrintable(text: string): boolean {
  return text.length > 0 && !/[\u0000-\u001f\u007f-\u009f]/.test(text);
}
