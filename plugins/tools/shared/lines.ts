/** Default number of lines Read returns. */
export const DEFAULT_READ_LINES = 2000;

/**
 * The lines of a text as Rust's `str::lines` gives them (what yoi numbered): split on `\n`, a
 * trailing `\r` dropped from each line, no empty last line for a final newline.
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/** `cat -n` style: the 1-based number right-aligned in 6 columns, a tab, the line. */
export function numberLines(lines: readonly string[], firstIndex: number): string {
  return lines.map((line, i) => `${String(firstIndex + i + 1).padStart(6)}\t${line}`).join('\n');
}
