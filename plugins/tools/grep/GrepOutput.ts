/** Longest line of matched text shown; longer ones (minified files) are cut. */
export const MAX_LINE_CHARS = 500;

/** ripgrep's `--json` text or bytes field. */
export type RgText = { text?: string; bytes?: string };

export function rgText(t: RgText | undefined): string {
  if (!t) return '';
  return t.text ?? Buffer.from(t.bytes ?? '', 'base64').toString('utf8');
}

export function cutLine(line: string): string {
  return line.length > MAX_LINE_CHARS
    ? `${line.slice(0, MAX_LINE_CHARS)}… [${line.length - MAX_LINE_CHARS} more characters]`
    : line;
}

/**
 * A window over a stream of output entries: keeps those from `offset` on, at most `limit`,
 * and counts them all, so the summary can say how much there was.
 */
export class OutputWindow {
  readonly kept: string[] = [];
  total = 0;

  constructor(
    private readonly offset: number,
    private readonly limit: number,
  ) {}

  add(entry: string): void {
    if (this.total >= this.offset && this.kept.length < this.limit) this.kept.push(entry);
    this.total++;
  }

  /** A separator line (`--`) kept only between kept entries. */
  separate(): void {
    if (this.kept.length > 0 && this.kept.length < this.limit && this.total > this.offset) this.kept.push('--');
  }

  /** ` (showing 251–500 of 812)` when not everything is shown, else ''. */
  note(noun: string): string {
    const shown = this.kept.filter((k) => k !== '--').length;
    if (shown === this.total) return '';
    if (shown === 0) return ` (none shown: offset ${this.offset} is past the last of ${this.total} ${noun})`;
    return ` (showing ${noun} ${this.offset + 1}–${this.offset + shown} of ${this.total})`;
  }
}
