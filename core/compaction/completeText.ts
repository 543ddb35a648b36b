import { consumeProviderStream } from '../provider/consumeProviderStream.js';
import type { LlmRequest, Provider } from '../provider/Provider.js';
import { ProviderError } from '../provider/providerErrors.js';

/**
 * Streams one request through a provider and returns its text (tool calls are ignored; no
 * events reach clients). A provider `error` part rejects with a `ProviderError`; an abort
 * rejects with an `AbortedError` at once, even if the provider ignores the signal.
 */
export async function completeText(provider: Provider, request: LlmRequest): Promise<string> {
  const texts: string[] = [];
  await consumeProviderStream(provider, request, (part) => {
    if (part.type === 'text-delta') texts.push(part.text);
    else if (part.type === 'error') throw new ProviderError(part.message);
  });
  return texts.join('');
}
