/** The last lines a server wrote to stderr (bounded), to explain why it failed or exited. */
export class StderrTail {
  private lines: string[] = [];
  private partial = '';

  constructor(
    private readonly maxLines = 20,
    private readonly maxLineChars = 500,
  ) {}

  push(chunk: Buffer | string): void {
    const text = this.partial + chunk.toString();
    const parts = text.split('\n');
    this.partial = parts.pop()!.slice(-this.maxLineChars);
    for (const line of parts) {
      const trimmed = line.trim();
      if (trimmed !== '') this.lines.push(trimmed.slice(0, this.maxLineChars));
    }
    if (this.lines.length > this.maxLines) this.lines = this.lines.slice(-this.maxLines);
  }

  /**
   * The line that best says what went wrong: the last one mentioning an error (a crashing node
   * process ends with its version, after the error), else the last non-empty one.
   */
  last(): string | undefined {
    const all = this.partial.trim() ? [...this.lines, this.partial.trim()] : this.lines;
    return all.findLast((line) => /error/i.test(line)) ?? all.at(-1);
  }
}
