/**
 * Deterministic text that is as expensive as text gets for a BPE tokenizer: `n` pseudo-random
 * code units from `from..from+span` (xorshift32) with nothing the pre-tokenizer splits on, so
 * the whole text is one "word". CJK (3 bytes a character in UTF-8) is the slowest.
 */
export function unbrokenRun(n: number, from = 0x4e00, span = 2000, seed = 1): string {
  let x = seed | 0 || 1;
  const codes = new Uint16Array(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    codes[i] = from + ((x >>> 0) % span);
  }
  return new TextDecoder('utf-16le').decode(codes);
}
