/** What a call bounded by {@link callWithDeadline} came to. */
export type DeadlineOutcome<T> = { readonly timedOut: false; readonly value: T } | { readonly timedOut: true };

/**
 * Runs `fn` with a signal that aborts when `signal` does or after `timeoutMs`, and returns as
 * soon as either happens, whether or not `fn` honours its signal: a tool that ignores it is
 * abandoned (its late result or error is dropped), so no call can hold a run forever. A
 * timeout resolves `{ timedOut: true }`; an abort of `signal` rejects with its reason.
 */
export async function callWithDeadline<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  { signal, timeoutMs }: { signal: AbortSignal; timeoutMs: number },
): Promise<DeadlineOutcome<T>> {
  const controller = new AbortController();
  const forward = () => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const aborted = new Promise<'aborted'>((resolve) => {
    if (controller.signal.aborted) resolve('aborted');
    else controller.signal.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
  try {
    const running = Promise.resolve().then(() => fn(controller.signal));
    running.catch(() => undefined); // an abandoned call may still fail later: not unhandled
    const first = await Promise.race([running.then((value) => ({ value })), timedOut, aborted]);
    if (first === 'aborted') throw signal.reason;
    if (first === 'timeout') {
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      return { timedOut: true };
    }
    return { timedOut: false, value: first.value };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', forward);
  }
}
