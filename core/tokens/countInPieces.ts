import { MAX_PIECE_CHARS, nextBoundary, pieceEnd } from './textPieces.js';

/** Counts the tokens of one piece (at most MAX_PIECE_CHARS characters). */
export type PieceCounter = (piece: string) => number;

/** How much of a text is counted: exactly up to `exactChars`, beyond that a sample of `sampleChars`. */
export interface CountLimits {
  readonly exactChars: number;
  readonly sampleChars: number;
  /** The sample is taken in this many windows spread evenly over the text. */
  readonly windows: number;
  /** Longest piece (default MAX_PIECE_CHARS). */
  readonly pieceChars?: number;
}

/**
 * Counting on the event loop between two `await`s (pieces yield in between): every text up to
 * 64 Ki characters exactly, a longer one from an even sample of 32 Ki characters. The most
 * hostile text (random CJK, one BPE word of 3-byte characters) costs 5-20 µs a character, so
 * this bounds a text's work at about a second of CPU; prose costs ~0.2 µs a character.
 */
export const FULL_LIMITS: CountLimits = { exactChars: 64 * 1024, sampleChars: 32 * 1024, windows: 64 };

/** Counting in one synchronous call (no yield possible): a few milliseconds, ~20 ms at worst. */
export const SYNC_LIMITS: CountLimits = { exactChars: 1024, sampleChars: 1024, windows: 8 };

/**
 * The pieces to count for `text` under `limits`, and the factor the sum is scaled by: the whole
 * text in word-aligned pieces (factor 1), or windows spread over it (factor length / sampled).
 */
export function* countPlan(text: string, limits: CountLimits): Generator<string, number> {
  const piece = limits.pieceChars ?? MAX_PIECE_CHARS;
  if (text.length <= limits.exactChars) {
    for (let start = 0; start < text.length;) {
      const end = pieceEnd(text, start, piece);
      yield text.slice(start, end);
      start = end;
    }
    return 1;
  }
  const windows = Math.max(1, limits.windows);
  const windowChars = Math.max(1, Math.floor(limits.sampleChars / windows));
  const stride = text.length / windows;
  let sampled = 0;
  for (let w = 0; w < windows; w++) {
    let start = nextBoundary(text, Math.floor(w * stride), piece);
    const stop = Math.min(text.length, start + windowChars);
    while (start < stop) {
      const end = Math.min(pieceEnd(text, start, piece), Math.max(stop, start + 1));
      yield text.slice(start, end);
      sampled += end - start;
      start = end;
    }
  }
  return sampled === 0 ? 1 : text.length / sampled;
}

/** Tokens of `text` counted synchronously under `limits` (see countPlan). */
export function countInPieces(text: string, count: PieceCounter, limits: CountLimits = SYNC_LIMITS): number {
  const plan = countPlan(text, limits);
  let n = 0;
  for (let step = plan.next(); ; step = plan.next()) {
    if (step.done) return Math.round(n * step.value);
    n += count(step.value);
  }
}

/**
 * Tokens of `text` counted under `limits`, awaiting `pause()` after every piece: the caller's
 * pause yields to the event loop once its time slice is used (see TimeSlice), and throws to stop.
 */
export async function countInPiecesAsync(
  text: string,
  count: PieceCounter,
  pause: () => Promise<void> | undefined,
  limits: CountLimits = FULL_LIMITS,
): Promise<number> {
  const plan = countPlan(text, limits);
  let n = 0;
  for (let step = plan.next(); ; step = plan.next()) {
    if (step.done) return Math.round(n * step.value);
    n += count(step.value);
    const p = pause();
    if (p) await p;
  }
}
