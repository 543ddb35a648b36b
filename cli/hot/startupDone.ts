const listeners: (() => void)[] = [];

/**
 * The moment a pod's start is over (it printed `listening`): bin/run.js's loader writes the
 * bundle's code cache then, so the cache holds what a start compiles and not what the pod's
 * later life does. A no-op outside the bundle.
 */
export function onStartupDone(fn: () => void): void {
  if (listeners.length < 8) listeners.push(fn);
}

export function startupDone(): void {
  for (const fn of listeners.splice(0)) fn();
}
