import type { PluginApi } from '../../../core/api.js';

/**
 * Loads a provider's SDK once the pod is listening, off the path to `listening` and before the
 * first request needs it: the provider package and its dependencies (~300 KB of JavaScript to
 * compile), and Node's `fetch` (undici, which Node loads on first use). A cold pod's first reply came
 * ~150 ms after a warm one's; a client that connects right away finds the loading done or
 * shares the CPU with it. Returns what the provider factory calls with its loader (the last
 * one wins: one provider per pod). A load that fails is left to the first request, which
 * reports it.
 */
export function warmUpWhenStarted(api: PluginApi): (load: () => Promise<unknown>) => void {
  let warm: (() => Promise<unknown>) | undefined;
  api.hooks.podStart.tap(api.name, () => {
    const load = warm;
    if (!load) return;
    setImmediate(() => {
      void globalThis.Response; // Node loads undici, its `fetch`, on the first read of this
      load().catch(() => undefined);
    }).unref();
  });
  return (load) => (warm = load);
}
