/**
 * Longest piece of text handed to the tokenizer at once. Byte-pair merging is quadratic in the
 * length of one pre-tokenized word, and an unbroken run (300,000 × `A`, a base64 blob, CJK text
 * without punctuation) is one word: cut into pieces this long, a hostile run costs a few
 * milliseconds per piece instead of minutes for the whole.
 */
export const MAX_PIECE_CHARS = 512;

const SPACE = 0x20;
const TAB = 0x09;
const APOSTROPHE = 0x27;
const SLASH = 0x2f;
const LF = 0x0a;
const CR = 0x0d;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
const LETTER_NUMBER_MARK_OR_SPACE = /[\p{L}\p{N}\p{M}\s]/u;
const WHITESPACE = /\s/u;

/**
 * True if o200k_base's pre-tokenizer always ends a word between `text[i - 1]` and `text[i]`,
 * so counting the two sides apart gives the same tokens as counting them together:
 * - before a space or tab that follows a non-space (a word never ends in a space; the space
 *   starts the next one, ` word`);
 * - between a letter or digit and a following punctuation character (letter words end at
 *   their last letter, except for contractions, hence not before `'`);
 * - after a line break, before anything but whitespace or `/` (a run of breaks ends there,
 *   also one that follows punctuation, which takes `[\r\n/]*`).
 */
function isWordBoundary(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  const p = text.charCodeAt(i - 1);
  if (c === SPACE || c === TAB) return !WHITESPACE.test(text[i - 1]);
  if (c === APOSTROPHE || (c >= 0xd800 && c <= 0xdfff)) return false;
  if (p === LF || p === CR) return c !== SLASH && !WHITESPACE.test(text[i]);
  return LETTER_OR_NUMBER.test(text[i - 1]) && !LETTER_NUMBER_MARK_OR_SPACE.test(text[i]);
}

/**
 * Where the piece starting at `start` ends: the last word boundary in the next
 * `maxChars` characters, else (an unbroken run) right after them, never inside a surrogate pair.
 */
export function pieceEnd(text: string, start: number, maxChars = MAX_PIECE_CHARS): number {
  const limit = start + maxChars;
  if (limit >= text.length) return text.length;
  for (let i = limit; i > start; i--) if (isWordBoundary(text, i)) return i;
  const c = text.charCodeAt(limit - 1);
  return c >= 0xd800 && c <= 0xdbff && limit - 1 > start ? limit - 1 : limit;
}

/** The first word boundary at or after `from` (within `maxChars`), else `from`: where a sample starts. */
export function nextBoundary(text: string, from: number, maxChars = MAX_PIECE_CHARS): number {
  const limit = Math.min(text.length, from + maxChars);
  for (let i = from; i < limit; i++) if (i > 0 && isWordBoundary(text, i)) return i;
  const c = text.charCodeAt(from);
  return c >= 0xdc00 && c <= 0xdfff ? from + 1 : from;
}
