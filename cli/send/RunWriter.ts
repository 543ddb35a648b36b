import type { Ora } from 'ora';
import pc from 'picocolors';
import { jsonForTerminal } from '../jsonForTerminal.js';
import { safeText } from '../safeText.js';
import type { Piece, RenderState, Span, Style } from './renderRun.js';

export interface RunWriterOptions {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  /**
   * Which streams are terminals: what goes to one has the pod's control characters defused
   * (`--json` lines: DEL and C1 escaped). Each stream on its own: `2>/dev/null` still leaves
   * stdout a terminal. Piped, the text is written as it came.
   */
  terminal: { out: boolean; err: boolean };
  /** Colours (a terminal, and `NO_COLOR` not set). */
  color: boolean;
  /** `ora`, given only for a spinner on stderr (a terminal with a width). */
  ora?: typeof import('ora').default;
  now?: () => number;
}

/**
 * Writes what `renderRun` produces: plain text when piped; on a terminal with colours (unless
 * `NO_COLOR`) and a spinner with the elapsed time while the pod thinks, runs a tool or
 * compacts. The spinner is on stderr and only at the start of a line, so it never overwrites
 * streamed text.
 */
export class RunWriter {
  private readonly colors: ReturnType<typeof pc.createColors>;
  private spinner?: Ora;
  private activity?: string;
  private since = 0;
  private ticker?: NodeJS.Timeout;
  private readonly now: () => number;
  /** Output not written yet, all for one stream. */
  private pending = '';
  private pendingTo: 'out' | 'err' = 'out';
  private flushQueued = false;
  private readonly flushSoon = () => {
    this.flushQueued = false;
    this.flush();
  };

  constructor(private readonly opts: RunWriterOptions) {
    this.colors = pc.createColors(opts.color);
    this.now = opts.now ?? Date.now;
  }

  /**
   * Queues one event's output. What the events of one read from the pod produce leaves in one
   * write per stream, at the end of that read (a microtask): text still shows as it arrives,
   * without a syscall per token. Switching streams writes what was queued first (order kept).
   */
  write(pieces: readonly Piece[]): void {
    if (pieces.length === 0) return;
    this.pause();
    for (const piece of pieces) {
      let text = '';
      for (const s of piece.spans) text += this.paint(s, piece.to);
      this.queue(piece.to, text);
    }
  }

  /** Queues `--json` lines as they are on stdout or stderr (on a terminal, DEL and C1 escaped). */
  raw(to: 'out' | 'err', text: string): void {
    this.queue(to, this.opts.terminal[to] ? jsonForTerminal(text) : text);
  }

  /** Writes out what is queued now. */
  flush(): void {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    (this.pendingTo === 'out' ? this.opts.out : this.opts.err).write(text);
  }

  private queue(to: 'out' | 'err', text: string): void {
    if (text === '') return;
    if (to !== this.pendingTo) this.flush();
    this.pendingTo = to;
    this.pending += text;
    if (!this.flushQueued) {
      this.flushQueued = true;
      queueMicrotask(this.flushSoon);
    }
  }

  /** Shows what the pod is doing (a spinner) after the output of one event. */
  show(state: RenderState): void {
    if (!this.opts.ora) return;
    const label = state.atLineStart ? state.activity : undefined;
    if (label === undefined) {
      this.hide();
      return;
    }
    if (label !== this.activity) {
      this.activity = label;
      this.since = this.now();
    }
    this.flush(); // the spinner goes after what is queued
    this.spinner ??= this.opts.ora({
      stream: this.opts.err,
      discardStdin: false,
      color: this.opts.color ? 'cyan' : false,
    });
    this.spinner.text = this.label();
    if (!this.spinner.isSpinning) this.spinner.start();
    this.ticker ??= setInterval(() => {
      if (this.spinner?.isSpinning) this.spinner.text = this.label();
    }, 1000).unref();
  }

  /** Removes the spinner (before output, and at the end). */
  stop(): void {
    this.flush();
    this.hide();
  }

  private hide(): void {
    this.pause();
    this.activity = undefined;
    clearInterval(this.ticker);
    this.ticker = undefined;
  }

  private pause(): void {
    if (this.spinner?.isSpinning) this.spinner.stop();
  }

  private label(): string {
    const seconds = Math.floor((this.now() - this.since) / 1000);
    const elapsed =
      seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${String(seconds % 60).padStart(2, '0')}s`;
    // The spinner is on a terminal; its label holds a tool's argument, from the model.
    return `${safeText(this.activity ?? '')}… ${this.colors.dim(elapsed)}`;
  }

  private paint(s: Span, to: 'out' | 'err'): string {
    // On a terminal, what the pod sends must not drive the terminal (escape sequences).
    const text = this.opts.terminal[to] ? safeText(s.text) : s.text;
    return PAINT[s.style](this.colors, text);
  }
}

const PAINT: Record<Style, (c: ReturnType<typeof pc.createColors>, text: string) => string> = {
  reply: (_c, t) => t,
  ok: (c, t) => c.green(t),
  fail: (c, t) => c.red(t),
  name: (c, t) => c.bold(t),
  dim: (c, t) => c.dim(t),
  warn: (c, t) => c.yellow(t),
  error: (c, t) => c.red(t),
};
