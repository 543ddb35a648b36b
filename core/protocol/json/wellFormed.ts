/**
 * `s`, with any lone surrogate (half of an astral character, left by code that cut a string
 * between UTF-16 units) replaced by U+FFFD. What the pod writes must read back everywhere:
 * serde_json (and yoi's own parser, like it) refuses a lone surrogate escape, so one such string
 * in a history item made every later `get_history` unreadable and its session log line lost on
 * resume (found by fuzzing).
 */
export function wellFormed(s: string): string {
  return s.isWellFormed() ? s : s.toWellFormed();
}

/**
 * `JSON.stringify(value)` with lone surrogates written as U+FFFD. `JSON.stringify` escapes a
 * surrogate only when it is alone (`\udXXX`), so its output says whether the slower second pass,
 * which replaces them, is needed (a literal `\ud` in a text costs that pass, nothing more).
 */
export function stringifyWellFormed(value: unknown): string {
  const json = JSON.stringify(value) as string;
  return json.includes('\\ud') ? (JSON.stringify(value, wellFormedStrings) as string) : json;
}

function wellFormedStrings(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? wellFormed(value) : value;
}
