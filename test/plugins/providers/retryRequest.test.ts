import { describe, expect, it } from '@jest/globals';
import { retryRequest } from '../../../plugins/providers/aiSdk/retryRequest.js';

/** An error shaped as the SDK's `APICallError` (the retry decision reads only these fields). */
function apiError(status: number, headers: Record<string, string> = {}) {
  return Object.assign(new Error(`HTTP ${status}`), {
    name: 'AI_APICallError',
    statusCode: status,
    isRetryable: status === 429 || status >= 500,
    responseHeaders: headers,
  });
}

/** An attempt that fails with `errors` in turn, then answers `ok`; counts its calls. */
function attempts(errors: Error[]) {
  const calls = { n: 0 };
  const attempt = async () => {
    const e = errors[calls.n++];
    if (e) throw e;
    return 'ok';
  };
  return { attempt, calls };
}

describe('retryRequest', () => {
  it('retries a retryable failure after the retry-after-ms the server asked for', async () => {
    const { attempt, calls } = attempts([
      apiError(429, { 'retry-after-ms': '0' }),
      apiError(503, { 'retry-after': '0' }),
    ]);
    await expect(retryRequest(attempt, 2, new AbortController().signal)).resolves.toBe('ok');
    expect(calls.n).toBe(3);
  });

  it('does not retry a refusal (4xx other than 408/409/429)', async () => {
    const { attempt, calls } = attempts([apiError(400, { 'retry-after': '0' })]);
    await expect(retryRequest(attempt, 3, new AbortController().signal)).rejects.toMatchObject({
      name: 'AI_APICallError',
      statusCode: 400,
    });
    expect(calls.n).toBe(1);
  });

  it('reports every attempt in an AI_RetryError once the retries run out', async () => {
    const errors = [apiError(500, { 'retry-after': '0' }), apiError(500, { 'retry-after': '0' })];
    const { attempt, calls } = attempts([...errors, apiError(500)]);
    const failure = await retryRequest(attempt, 1, new AbortController().signal).catch((e: unknown) => e);
    expect(calls.n).toBe(2);
    expect(failure).toMatchObject({ name: 'AI_RetryError', errors, lastError: errors[1] });
  });

  it('gives up waiting as soon as the request is aborted', async () => {
    const aborter = new AbortController();
    // No retry-after: the backoff is 2 s; the abort must end it long before.
    const { calls } = attempts([]);
    const attempt = async () => {
      calls.n++;
      queueMicrotask(() => aborter.abort());
      throw apiError(503);
    };
    await expect(retryRequest(attempt, 5, aborter.signal)).rejects.toBeDefined();
    expect(calls.n).toBe(1);
  });
});
