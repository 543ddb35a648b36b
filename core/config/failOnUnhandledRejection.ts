/**
 * Runs `load` (a config's evaluation, which imports its plugins' modules) and turns a promise
 * rejection it leaves unhandled into `fail(reason)`, thrown once `load` is done. Without this,
 * Node ends the process on such a rejection with a stack trace, and a detached pod's parent is
 * left with Node's version line. The handler lives only for the load: a stray rejection in the
 * running pod still ends it, as Node does by default.
 */
export async function failOnUnhandledRejection<T>(
  load: () => Promise<T>,
  fail: (reason: unknown, value: T) => Error,
): Promise<T> {
  const unhandled = new Map<Promise<unknown>, unknown>();
  const onUnhandled = (reason: unknown, promise: Promise<unknown>) => void unhandled.set(promise, reason);
  const onHandled = (promise: Promise<unknown>) => void unhandled.delete(promise);
  process.on('unhandledRejection', onUnhandled);
  process.on('rejectionHandled', onHandled);
  try {
    let result: { value: T } | { error: unknown };
    try {
      result = { value: await load() };
    } catch (error) {
      result = { error };
    }
    // Node reports a rejection once the microtask queue has drained: let this turn end first.
    await new Promise((resolve) => setImmediate(resolve));
    if ('error' in result) throw result.error;
    const [first] = unhandled.values();
    if (unhandled.size > 0) throw fail(first, result.value);
    return result.value;
  } finally {
    process.off('unhandledRejection', onUnhandled);
    process.off('rejectionHandled', onHandled);
  }
}
