/** Longest reference shown in labels, placeholders and reasons; the rest is elided. */
export const MAX_DISPLAY_CHARS = 256;

/**
 * A user-written reference made safe to show: control characters (NUL, newlines, escapes)
 * become U+FFFD so a name cannot forge context lines or terminal output, and very long input
 * is cut so a hostile 10 MB path does not end up in every alert.
 */
export function displayRef(text: string, max: number = MAX_DISPLAY_CHARS): string {
  const head = text.length > max ? text.slice(0, max) : text;
  const safe = head.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '\uFFFD');
  return text.length > max ? `${safe}…` : safe;
}
