/**
 * Text from a pod (or anyone but this process) made safe to write to a terminal: a carriage
 * return before a newline goes, every other control character (C0, DEL, C1: escape sequences,
 * `\r` that overwrites a line, U+009B that starts one alone) becomes U+FFFD, so the text cannot
 * move the cursor, set the title or the clipboard, or clear the screen. Newlines and tabs stay.
 */
export function safeText(text: string): string {
  return text.replaceAll('\r\n', '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '\ufffd');
}

/**
 * One line for a terminal (an error line): every control character becomes U+FFFD, tabs and
 * carriage returns too, since what follows must stay on this line, readable.
 */
export function safeLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '\ufffd');
}
