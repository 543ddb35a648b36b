/**
 * JSON text for a terminal: DEL and the C1 controls (U+007F–U+009F) written as `\u` escapes.
 * JSON.stringify (and serde) escape C0, ESC included, but not these, and U+009B alone starts a
 * CSI on terminals that take 8-bit controls. They can only stand inside strings, where the
 * escape means the same character: the JSON parses to the same value.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
