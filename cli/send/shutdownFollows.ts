import type { PodClient } from '../../client/PodClient.js';

/**
 * How long a cancelled run waits for the pod's `shutdown`. A pod that stops cancels its run
 * first and says `shutdown` right after (milliseconds: its plugins' podStop hooks between);
 * a run another client cancelled gets nothing more, and `yoi send` exits this much later.
 */
export const SHUTDOWN_GRACE_MS = 500;

/**
 * Watches `client` for the pod going away (`shutdown`, or the connection closing): call it
 * before the run is sent; `after()` resolves true if it did or does within SHUTDOWN_GRACE_MS.
 */
export function watchShutdown(client: PodClient): { after(): Promise<boolean> } {
  let gone = false;
  const waiters = new Set<() => void>();
  const goneNow = () => {
    gone = true;
    for (const w of waiters) w();
  };
  client.onEvent((e) => {
    if (e.event === 'shutdown') goneNow();
  });
  void client.closed.then(goneNow);
  return {
    after: () =>
      gone
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            const done = (value: boolean) => {
              clearTimeout(timer);
              waiters.delete(onGone);
              resolve(value);
            };
            const onGone = () => done(true);
            const timer = setTimeout(() => done(false), SHUTDOWN_GRACE_MS);
            waiters.add(onGone);
          }),
  };
}
