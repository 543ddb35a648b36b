import { isUtf8 } from 'node:buffer';

/** How much of a discarded line is kept for its error (enough for the envelope's request_id). */
const HEAD_BYTES = 1024;

/** Default limit of one protocol line: 16 MiB. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export type LineError =
  | { kind: 'line_too_long'; message: string; limit: number; head: string }
  | { kind: 'input_budget'; message: string; limit: number; head: string }
  | { kind: 'invalid_utf8'; message: string };

/** Bytes shared by several readers (a pod's budget for buffered input, see InputBudget). */
export interface ByteBudget {
  readonly limit: number;
  /** Takes `bytes` if they fit, else takes nothing and returns false. */
  take(bytes: number): boolean;
  give(bytes: number): void;
}

export interface LineReaderOptions {
  maxLineBytes?: number;
  /**
   * Every byte of an unfinished line is taken from this budget before it is buffered; a line
   * that does not fit is dropped (reported as `input_budget`, the rest of it discarded). A line
   * completed from buffered bytes keeps them until its receiver calls `release`.
   */
  budget?: ByteBudget;
  /** A complete, trimmed, non-blank line; `release` gives its buffered bytes back to the budget. */
  onLine: (line: string, release: () => void) => void;
  /** A line that could not be delivered; reading continues with the next line. */
  onError: (error: LineError) => void;
}

// Rust's str::trim: Unicode White_Space. Unlike String.prototype.trim it keeps U+FEFF (BOM),
// which serde then rejects, and it strips U+0085 (NEL).
const EDGE_WS =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

function isWs(c: number): boolean {
  return c <= 0x20
    ? c === 0x20 || (c >= 0x09 && c <= 0x0d)
    : c === 0x85 ||
        c === 0xa0 ||
        c === 0x1680 ||
        (c >= 0x2000 && c <= 0x200a) ||
        c === 0x2028 ||
        c === 0x2029 ||
        c === 0x202f ||
        c === 0x205f ||
        c === 0x3000;
}

/**
 * NDJSON framing over a byte stream, as the Rust reader does it: lines end at `\n`, surrounding
 * Unicode whitespace is trimmed (CRLF works), blank lines are skipped, a final unterminated line
 * is delivered at {@link LineReader.end}. Beyond the original, each failure is reported per line and the
 * stream continues: invalid UTF-8, and a line over `maxLineBytes` (reported as soon as the limit
 * is crossed; the rest of that line is discarded without being buffered), and a line that does
 * not fit the shared `budget` (dropped the same way).
 */
export class LineReader {
  private readonly max: number;
  private parts: Buffer[] = [];
  private size = 0;
  /** Bytes of the unfinished line taken from the budget. */
  private held = 0;
  private discarding = false;

  constructor(private readonly opts: LineReaderOptions) {
    this.max = opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) {
        this.buffer(chunk.subarray(start));
        return;
      }
      if (this.discarding) {
        this.discarding = false;
      } else if (this.size + (nl - start) > this.max) {
        this.overflow(this.head(chunk.subarray(start, nl)));
        this.discarding = false;
      } else if (this.size === 0) {
        this.deliver(chunk.subarray(start, nl), 0);
      } else {
        this.parts.push(chunk.subarray(start, nl));
        const line = Buffer.concat(this.parts, this.size + (nl - start));
        const held = this.held;
        this.held = 0;
        this.reset();
        this.deliver(line, held);
      }
      start = nl + 1;
    }
  }

  /** End of stream: delivers the last line if it had no `\n`. */
  end(): void {
    if (!this.discarding && this.size > 0) {
      const line = Buffer.concat(this.parts, this.size);
      const held = this.held;
      this.held = 0;
      this.reset();
      this.deliver(line, held);
    }
    this.discard();
  }

  /** Drops the unfinished line (the stream was closed): its bytes go back to the budget. */
  discard(): void {
    this.reset();
    this.discarding = false;
  }

  /** Bytes of the unfinished line held in memory. */
  get bufferedBytes(): number {
    return this.size;
  }

  private buffer(piece: Buffer): void {
    if (this.discarding) return;
    if (this.size + piece.length > this.max) {
      this.overflow(this.head(piece));
      return;
    }
    const { budget } = this.opts;
    if (budget) {
      if (!budget.take(piece.length)) {
        this.starved(budget.limit, this.head(piece));
        return;
      }
      this.held += piece.length;
    }
    // Copy: the caller may reuse its chunk buffer.
    this.parts.push(Buffer.from(piece));
    this.size += piece.length;
  }

  /** The first bytes of the unfinished line with `piece` appended, as text (for its request_id). */
  private head(piece: Buffer): string {
    const taken: Buffer[] = [];
    let size = 0;
    for (let i = 0; i <= this.parts.length && size < HEAD_BYTES; i++) {
      const part = (i < this.parts.length ? this.parts[i] : piece).subarray(0, HEAD_BYTES - size);
      taken.push(part);
      size += part.length;
    }
    return Buffer.concat(taken, size).toString('utf8');
  }

  private overflow(head: string): void {
    this.reset();
    this.discarding = true;
    this.opts.onError({
      kind: 'line_too_long',
      head,
      limit: this.max,
      message: `line exceeds the ${formatBytes(this.max)} limit; the rest of the line was discarded`,
    });
  }

  private starved(limit: number, head: string): void {
    this.reset();
    this.discarding = true;
    this.opts.onError({
      kind: 'input_budget',
      head,
      limit,
      message: `line dropped: the pod's ${formatBytes(limit)} for unfinished lines of all clients (limits.inputBufferBytes) is in use; the rest of the line was discarded`,
    });
  }

  /** Forgets the unfinished line, giving back what it held of the budget. */
  private reset(): void {
    this.parts = [];
    this.size = 0;
    if (this.held > 0) this.opts.budget?.give(this.held);
    this.held = 0;
  }

  private deliver(bytes: Buffer, held: number): void {
    let released = held === 0;
    const release = () => {
      if (released) return;
      released = true;
      this.opts.budget?.give(held);
    };
    if (!isUtf8(bytes)) {
      release();
      this.opts.onError({ kind: 'invalid_utf8', message: 'line is not valid UTF-8' });
      return;
    }
    let line = bytes.toString('utf8');
    if (line.length > 0 && (isWs(line.charCodeAt(0)) || isWs(line.charCodeAt(line.length - 1))))
      line = line.replace(EDGE_WS, '');
    if (line.length > 0) this.opts.onLine(line, release);
    else release();
  }
}

/** `16 MiB`, `4 KiB`, `100 bytes`: sizes in messages. */
export function formatBytes(n: number): string {
  const MiB = 1024 * 1024;
  if (n >= MiB) return n % MiB === 0 ? `${n / MiB} MiB` : `${(n / MiB).toFixed(1)} MiB`;
  if (n >= 1024) return n % 1024 === 0 ? `${n / 1024} KiB` : `${(n / 1024).toFixed(1)} KiB`;
  return `${n} bytes`;
}
