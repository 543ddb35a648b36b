/** The SDK's error fields a retry decision reads (duck-typed: errors may come from another realm). */
interface HttpFailure {
  name?: unknown;
  isRetryable?: unknown;
  responseHeaders?: Record<string, string | undefined>;
  cause?: HttpFailure;
}

/** Longest `retry-after` always honoured; a longer one only when shorter than the backoff (as the AI SDK does). */
const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Runs `attempt` (one request, until its response starts) and retries what the SDK marks
 * retryable — 408, 409, 429, 5xx and connection failures — up to `maxRetries` times, with
 * exponential backoff from 2 s, or after the server's `retry-after-ms` / `retry-after` when it
 * asks for less than a minute (or less than the backoff). After several attempts a failure is
 * an `AI_RetryError` holding every attempt's error, as `streamText` reports it. An abort of
 * `signal` ends the wait at once. The SDK's utilities load at the first request: at a pod's
 * start they would cost every pod (their stream parser loads Node's web streams) a few ms.
 */
export async function retryRequest<T>(
  attempt: () => PromiseLike<T>,
  maxRetries: number,
  signal: AbortSignal,
): Promise<T> {
  const { retryWithExponentialBackoff } = await import('@ai-sdk/provider-utils');
  const retry = retryWithExponentialBackoff({
    maxRetries,
    abortSignal: signal,
    shouldRetry: (error) => isApiCallError(error as HttpFailure) && (error as HttpFailure).isRetryable === true,
    getDelayInMs: ({ error, exponentialBackoffDelay }) =>
      retryAfterMs(error, exponentialBackoffDelay) ?? exponentialBackoffDelay,
    createRetryError: ({ message, errors }) =>
      Object.assign(new Error(message), { name: 'AI_RetryError', errors, lastError: errors.at(-1) }),
  });
  return retry(attempt);
}

function isApiCallError(error: HttpFailure | undefined): boolean {
  return error?.name === 'AI_APICallError';
}

/** What the server asked to wait, when it asked for less than a minute or than the backoff. */
function retryAfterMs(error: unknown, backoffMs: number): number | undefined {
  const e = error as HttpFailure | undefined;
  const failure = isApiCallError(e) ? e : isApiCallError(e?.cause) ? e?.cause : undefined;
  const headers = failure?.responseHeaders;
  if (!headers) return undefined;
  let ms: number | undefined;
  const exact = Number.parseFloat(headers['retry-after-ms'] ?? '');
  if (!Number.isNaN(exact)) ms = exact;
  const after = headers['retry-after'];
  if (ms === undefined && after) {
    const seconds = Number.parseFloat(after);
    ms = Number.isNaN(seconds) ? Date.parse(after) - Date.now() : seconds * 1000;
  }
  return ms !== undefined && ms >= 0 && (ms < MAX_RETRY_AFTER_MS || ms < backoffMs) ? ms : undefined;
}
