import type { LlmRequest, Provider, ProviderPart } from './Provider.js';
import { TimeSlice } from '../tokens/TimeSlice.js';
import { feedParts } from './feedParts.js';
import { AbortedError, ProviderError } from './providerErrors.js';

/**
 * How long parts that are already buffered (a fast server, a burst of chunks) are handled before
 * the event loop gets a turn: without it a whole reply is parsed before the first delta leaves
 * the pod, since buffered stream reads resolve as microtasks and the sockets' writes wait.
 */
const STREAM_SLICE_MS = 4;

/**
 * Feeds every part of one provider stream to `onPart`, in order. One race for the whole stream,
 * not one per part: on abort the caller stops waiting at once (`AbortedError`), even for a
 * provider that ignores the signal, and the loop stops at the provider's next part without
 * passing it on. A failing stream rejects with a `ProviderError`; `onPart` may throw one too.
 * Parts are handed on as they come, in slices of STREAM_SLICE_MS, so clients see the text while
 * the rest of the reply is still being parsed.
 */
export async function consumeProviderStream(
  provider: Provider,
  request: LlmRequest,
  onPart: (part: ProviderPart) => void,
): Promise<void> {
  const { signal } = request;
  if (signal.aborted) throw new AbortedError('aborted');
  // The loop reads this flag, not the signal (see feedParts); the race below ends the wait.
  const stop = { stopped: false };
  const consume = async () => {
    try {
      await feedParts(provider.stream(request), stop, new TimeSlice(undefined, STREAM_SLICE_MS), onPart);
    } catch (e) {
      if (signal.aborted || e instanceof ProviderError) throw e;
      throw new ProviderError((e as Error)?.message ?? String(e));
    }
  };
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      stop.stopped = true;
      reject(new AbortedError('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const consuming = consume();
  consuming.catch(() => undefined); // after an abort nobody awaits it any more
  try {
    await Promise.race([consuming, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    aborted.catch(() => undefined);
  }
  if (signal.aborted) throw new AbortedError('aborted');
}
