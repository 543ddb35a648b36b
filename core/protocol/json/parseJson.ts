import { MAX_JSON_DEPTH, parseJsonExact } from './parseJsonExact.js';

/**
 * Parses one JSON line with serde_json's semantics (see {@link parseJsonExact}) at close to
 * `JSON.parse` speed: a quick scan outside string bodies decides whether native parsing is
 * exact for this line. Lines with float literals, integers of 16+ digits, surrogate escapes,
 * duplicate keys or deep nesting go to the exact parser, as do lines `JSON.parse` rejects (so
 * every error message has the same form). Throws {@link JsonSyntaxError}.
 */
export function parseJson(text: string): unknown {
  const keyTokens = scanForExactness(text);
  if (keyTokens >= 0) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = NEEDS_EXACT;
    }
    // JSON.parse keeps the last of duplicate keys: fewer keys than key tokens means a duplicate.
    if (value !== NEEDS_EXACT && countKeys(value) === keyTokens) return value;
  }
  return parseJsonExact(text); // exact result, or the precise error
}

const NEEDS_EXACT = Symbol('needs exact parse');
const DIGIT_RUN_LIMIT = 15; // 15 digits are always below 2^53

/** True when `JSON.parse` could silently differ from serde_json on this text. */
export function needsExactParse(text: string): boolean {
  const keyTokens = scanForExactness(text);
  if (keyTokens < 0) return true;
  try {
    return countKeys(JSON.parse(text)) !== keyTokens;
  } catch {
    return true;
  }
}

/**
 * Scans outside string bodies. Returns -1 when the line needs the exact parser (a float
 * literal, `-0`, a 16+ digit integer, a `\uD8xx`-style escape, nesting deeper than 128, an
 * unterminated string), else the number of object keys written in the text.
 */
function scanForExactness(text: string): number {
  // A `\uD800`-style escape might be a lone surrogate, which JSON.parse accepts and serde rejects.
  for (let u = text.indexOf('\\u'); u >= 0; u = text.indexOf('\\u', u + 2)) {
    const c = text.charCodeAt(u + 2);
    if (c === 0x64 || c === 0x44) return -1;
  }
  const n = text.length;
  let depth = 0;
  let keys = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (end < 0) return -1;
      i = end + 1;
      let k = i;
      while (isJsonWs(text.charCodeAt(k))) k++;
      if (text.charCodeAt(k) === 0x3a) keys++;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return -1;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let j = i + 1;
      let digits = c === 0x2d ? 0 : 1;
      for (;;) {
        const d = text.charCodeAt(j);
        if (d >= 0x30 && d <= 0x39) {
          digits++;
          j++;
        } else if (d === 0x2e || d === 0x65 || d === 0x45) {
          return -1; // float literal
        } else break;
      }
      if (digits > DIGIT_RUN_LIMIT) return -1;
      if (c === 0x2d && text.charCodeAt(i + 1) === 0x30 && j === i + 2) return -1; // -0
      i = j;
      continue;
    }
    i++;
  }
  return keys;
}

function isJsonWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function countKeys(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) if (v !== null && typeof v === 'object') n += countKeys(v);
    return n;
  }
  for (const k in value) {
    n++;
    const v = (value as Record<string, unknown>)[k];
    if (v !== null && typeof v === 'object') n += countKeys(v);
  }
  return n;
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
