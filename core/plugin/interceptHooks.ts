import tapable from 'tapable';
import type { HookName, Hooks } from '../hooks/createHooks.js';

const { HookMap } = tapable;

/** Where a tap is being registered: `resolveSegment(paste)` is hook `resolveSegment`, key `paste`. */
export interface TapSite {
  readonly hook: HookName;
  /** The HookMap key, for keyed hooks. */
  readonly key?: string;
  /** `beforeTurn`, or `resolveSegment(paste)` for a HookMap key. */
  readonly label: string;
}

/** A tap as tapable hands it to a `register` interceptor. */
export interface FullTap {
  name: string;
  type: 'sync' | 'async' | 'promise';
  fn: (...args: any[]) => unknown;
  stage?: number;
  before?: string | string[];
}

type Interceptable = { intercept(interceptor: { register(tap: FullTap): FullTap }): void };
type InterceptableMap = { intercept(interceptor: { factory(key: unknown, hook: Interceptable): Interceptable }): void };

/**
 * Installs `register` on every hook of the catalog, including the per-key hooks a HookMap
 * creates lazily (through its `factory` interceptor). `register` sees each tap before it is
 * inserted and returns the tap to insert (or throws to refuse it).
 */
export function interceptHooks(hooks: Hooks, register: (tap: FullTap, site: TapSite) => FullTap): void {
  for (const [name, hook] of Object.entries(hooks) as [HookName, unknown][]) {
    if (hook instanceof HookMap) {
      (hook as unknown as InterceptableMap).intercept({
        factory(key, keyed) {
          const site: TapSite = { hook: name, key: String(key), label: `${name}(${String(key)})` };
          keyed.intercept({ register: (tap) => register(tap, site) });
          return keyed;
        },
      });
    } else {
      const site: TapSite = { hook: name, label: name };
      (hook as Interceptable).intercept({ register: (tap) => register(tap, site) });
    }
  }
}
