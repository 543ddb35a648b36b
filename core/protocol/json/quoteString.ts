import { wellFormed } from './wellFormed.js';

/** Nothing `JSON.stringify` would escape: quotes, backslashes, control characters, surrogates. */
export const PLAIN_STRING = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/**
 * `JSON.stringify(text)` with a lone surrogate written as U+FFFD (as the encoder's exact writer
 * writes it), without the call for the common text that needs no escape.
 */
export function quoteString(text: string): string {
  return PLAIN_STRING.test(text) ? `"${text}"` : JSON.stringify(wellFormed(text));
}
