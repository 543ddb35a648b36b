import type { BufferedPartIterator, ProviderPart } from './Provider.js';
import type { TimeSlice } from '../tokens/TimeSlice.js';

/** Parts handled between two looks at the clock (a burst's parts take well under a µs each). */
const SLICE_CHECK = 16;

/** Set by the caller once the stream is to stop (its abort listener sets it). */
export interface StopFlag {
  readonly stopped: boolean;
}

/**
 * Hands every part of `parts` to `onPart` in order, as `for await` would (the iterator's
 * `return()` is called when the loop stops early: a stop, `onPart` throwing), taking the parts
 * a `BufferedPartIterator` already holds without a promise each. Stops at the next part once
 * `stop.stopped` is set. The event loop gets its turn when `slice` says so: the clock is read
 * every SLICE_CHECK parts, and awaited only when the slice is over (an `await` of nothing still
 * costs a microtask per part).
 *
 * The loop touches no `AbortSignal`: signals of different runs can differ in shape, and a failed
 * shape check in this loop (then its abort listener's removal) discarded its optimized code at
 * the end of every run — ~40 ms of recompiling per run, on a thread competing with the pod's.
 */
export async function feedParts(
  parts: AsyncIterable<ProviderPart>,
  stop: StopFlag,
  slice: TimeSlice,
  onPart: (part: ProviderPart) => void,
): Promise<void> {
  const it = parts[Symbol.asyncIterator]() as AsyncIterator<ProviderPart> & Partial<BufferedPartIterator>;
  const take = typeof it.takeBuffered === 'function' ? () => it.takeBuffered!() : () => undefined;
  let count = 0;
  let open = true; // whether the iterator is to be closed when the loop stops early
  try {
    for (;;) {
      let r: IteratorResult<ProviderPart>;
      try {
        r = await it.next();
      } catch (e) {
        open = false; // a stream whose `next()` failed is over (`for await` does not close it either)
        throw e;
      }
      if (r.done) {
        open = false;
        return;
      }
      for (let part: ProviderPart | undefined = r.value; part !== undefined; part = take()) {
        if (stop.stopped) return;
        onPart(part);
        if (++count % SLICE_CHECK !== 0) continue;
        const rest = slice.pause();
        if (rest) await rest;
      }
    }
  } finally {
    // A provider that fails while being closed changes nothing: the stream is over either way.
    if (open) await Promise.resolve(it.return?.()).catch(() => undefined);
  }
}
