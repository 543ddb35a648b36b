import type { PluginHost } from './PluginHost.js';

/**
 * Marks objects made by `definePlugin()`. A registered symbol, so a plugin made by another
 * copy of yoi (a config file may import its own) is still recognised.
 */
export const PLUGIN_BRAND: unique symbol = Symbol.for('yoi.plugin') as never;

/**
 * A configured plugin, ready to apply: the frozen value a plugin factory returns. Its options
 * were validated when the factory was called.
 */
export interface YoiPlugin {
  readonly [PLUGIN_BRAND]: true;
  /** Unique name; built-ins use the `yoi:` prefix, third parties their own (`acme:jira`). */
  readonly name: string;
  /** The validated options (what `apply` receives), for display. */
  readonly options: unknown;
  /** Names of plugins that must be applied before this one. */
  readonly dependsOn: readonly string[];
  /** Taps hooks on `host`; synchronous, no I/O (all I/O happens inside hooks). */
  apply(host: PluginHost): void;
}

/** True for a plugin made with `definePlugin()` (by any copy of yoi). */
export function isYoiPlugin(value: unknown): value is YoiPlugin {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PLUGIN_BRAND] === true
    && typeof (value as { name?: unknown }).name === 'string' && typeof (value as { apply?: unknown }).apply === 'function';
}
