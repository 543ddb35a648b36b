import { AbortedError, ProviderError } from '../controller/streamTurn.js';
import type { LlmRequest, Provider, ProviderPart } from '../provider/Provider.js';

/**
 * Streams one request through a provider and returns its text (tool calls are ignored; no
 * events reach clients). A provider `error` part rejects with a `ProviderError`; an abort
 * rejects with an `AbortedError` at once, even if the provider ignores the signal.
 */
export async function completeText(provider: Provider, request: LlmRequest): Promise<string> {
  const { signal } = request;
  if (signal.aborted) throw new AbortedError('aborted');
  const iterator = provider.stream(request)[Symbol.asyncIterator]();
  let onAbort!: () => void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AbortedError('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  let text = '';
  try {
    for (;;) {
      let next: IteratorResult<ProviderPart>;
      try {
        next = await Promise.race([iterator.next(), aborted]);
      } catch (e) {
        if (e instanceof AbortedError || e instanceof ProviderError) throw e;
        throw new ProviderError((e as Error)?.message ?? String(e));
      }
      if (next.done) break;
      if (next.value.type === 'text-delta') text += next.value.text;
      else if (next.value.type === 'error') throw new ProviderError(next.value.message);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (signal.aborted) void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
  if (signal.aborted) throw new AbortedError('aborted');
  return text;
}
