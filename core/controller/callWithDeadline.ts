/** What a call bounded by {@link callWithDeadline} came to. */
export type DeadlineOutcome<T> = { readonly timedOut: false; readonly value: T } | { readonly timedOut: true };

/**
 * Runs `fn` with a signal that aborts when `signal` does or after `timeoutMs`, and returns as
 * soon as either happens, whether or not `fn` honours its signal: a tool that ignores it is
 * abandoned (its late result or error is dropped), so no call can hold a run forever. A
 * timeout resolves `{ timedOut: true }`; an abort of `signal` rejects with its reason.
 */
export function callWithDeadline<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  { signal, timeoutMs }: { signal: AbortSignal; timeoutMs: number },
): Promise<DeadlineOutcome<T>> {
  // One promise settled by whichever comes first, one listener: every tool call goes through here.
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const controller = new AbortController();
    const settle = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      settle();
      controller.abort(signal.reason);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => {
      settle();
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      resolve({ timedOut: true });
    }, timeoutMs);
    // Started on a later microtask: a tool that throws at once fails like one that rejects. An
    // abandoned call's late result or error settles nothing (the promise is settled already).
    Promise.resolve()
      .then(() => fn(controller.signal))
      .then(
        (value) => {
          settle();
          resolve({ timedOut: false, value });
        },
        (error: unknown) => {
          settle();
          reject(error);
        },
      );
  });
}
