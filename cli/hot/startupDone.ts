let listener: (() => void) | undefined;

/**
 * The moment a pod's start is over (it printed `listening`): bin/run.js's loader writes the
 * bundle's code cache then, so the cache holds what a start compiles and not what the pod's
 * later life does. A no-op outside the bundle.
 */
export function onStartupDone(fn: () => void): void {
  listener = fn;
}

export function startupDone(): void {
  const fn = listener;
  listener = undefined;
  fn?.();
}
