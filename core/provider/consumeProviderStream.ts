import type { LlmRequest, Provider, ProviderPart } from './Provider.js';
import { AbortedError, ProviderError } from './providerErrors.js';

/**
 * Feeds every part of one provider stream to `onPart`, in order. One race for the whole stream,
 * not one per part: on abort the caller stops waiting at once (`AbortedError`), even for a
 * provider that ignores the signal, and the loop stops at the provider's next part without
 * passing it on. A failing stream rejects with a `ProviderError`; `onPart` may throw one too.
 */
export async function consumeProviderStream(provider: Provider, request: LlmRequest, onPart: (part: ProviderPart) => void): Promise<void> {
  const { signal } = request;
  if (signal.aborted) throw new AbortedError('aborted');
  const consume = async () => {
    try {
      for await (const part of provider.stream(request)) {
        if (signal.aborted) return;
        onPart(part);
      }
    } catch (e) {
      if (signal.aborted || e instanceof ProviderError) throw e;
      throw new ProviderError((e as Error)?.message ?? String(e));
    }
  };
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AbortedError('aborted'));
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
