import { JsonSyntaxError } from './JsonSyntaxError.js';
import { MAX_JSON_DEPTH, parseJsonExact } from './parseJsonExact.js';

/**
 * Parses one JSON line with serde_json's semantics (see {@link parseJsonExact}) at close to
 * `JSON.parse` speed: a quick scan outside string bodies decides whether native parsing is
 * exact for this line. Lines with float literals, integers of 16+ digits, surrogate escapes,
 * duplicate keys or deep nesting go to the exact parser, as do lines `JSON.parse` rejects (so
 * every error message has the same form). Throws {@link JsonSyntaxError}.
 */
export function parseJson(text: string): unknown {
  if (needsExactParse(text)) return parseJsonExact(text);
  try {
    return JSON.parse(text);
  } catch {
    parseJsonExact(text); // throws the precise error
    throw new JsonSyntaxError('invalid JSON', 0);
  }
}

const DIGIT_RUN_LIMIT = 15; // 15 digits are always below 2^53

/** True when `JSON.parse` could silently differ from serde_json on this text. */
export function needsExactParse(text: string): boolean {
  // A `\uD800`-style escape might be a lone surrogate, which JSON.parse accepts and serde rejects.
  if (text.includes('\\ud') || text.includes('\\uD')) return true;
  const n = text.length;
  let depth = 0;
  // Keys seen per open object; null marks an array level.
  const keys: (string[] | null)[] = [];
  let expectKey = false;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (end < 0) return true;
      if (expectKey) {
        const top = keys[keys.length - 1];
        if (top) {
          const key = text.slice(i + 1, end);
          // Escaped keys compare by their raw text; escapes in keys are rare enough to go exact.
          if (key.includes('\\') || top.includes(key)) return true;
          top.push(key);
        }
        expectKey = false;
      }
      i = end + 1;
      continue;
    }
    switch (c) {
      case 0x7b: // {
        if (++depth > MAX_JSON_DEPTH) return true;
        keys.push([]);
        expectKey = true;
        break;
      case 0x5b: // [
        if (++depth > MAX_JSON_DEPTH) return true;
        keys.push(null);
        break;
      case 0x7d: // }
      case 0x5d: // ]
        depth--;
        keys.pop();
        break;
      case 0x2c: // ,
        expectKey = keys.length > 0 && keys[keys.length - 1] !== null;
        break;
      case 0x2d: // -
      case 0x30: case 0x31: case 0x32: case 0x33: case 0x34:
      case 0x35: case 0x36: case 0x37: case 0x38: case 0x39: {
        let j = i + 1;
        let digits = c === 0x2d ? 0 : 1;
        for (;;) {
          const d = text.charCodeAt(j);
          if (d >= 0x30 && d <= 0x39) {
            digits++;
            j++;
          } else if (d === 0x2e || d === 0x65 || d === 0x45) {
            return true; // float literal
          } else break;
        }
        if (digits > DIGIT_RUN_LIMIT) return true;
        if (c === 0x2d && text.charCodeAt(i + 1) === 0x30 && j === i + 2) return true; // -0
        i = j;
        continue;
      }
    }
    i++;
  }
  return false;
}

/** Index of the closing quote of the string starting at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let j = text.indexOf('"', start + 1);
  while (j > 0 && text.charCodeAt(j - 1) === 0x5c) {
    let k = j - 1;
    while (text.charCodeAt(k) === 0x5c) k--;
    if ((j - 1 - k) % 2 === 0) break; // an even run of backslashes escapes itself
    j = text.indexOf('"', j + 1);
  }
  return j;
}
