import type { z } from 'zod';
import type { PluginApi } from './PluginApi.js';

/**
 * Marks objects made by `definePlugin()`. A registered symbol, so a plugin made by another
 * copy of yoi (a config file may import its own) is still recognised.
 */
export const PLUGIN_BRAND: unique symbol = Symbol.for('yoi.plugin') as never;

/** The config section a plugin owns: its key (path) and schema. */
export interface PluginConfigSection {
  readonly key: string;
  readonly schema: z.ZodType;
}

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
  /** The config section this plugin owns, if any. */
  readonly config?: PluginConfigSection;
  /** Taps hooks through `api`; synchronous, no I/O (all I/O happens inside hooks). */
  apply(api: PluginApi): void;
}

/** True for a plugin made with `definePlugin()` (by any copy of yoi). */
export function isYoiPlugin(value: unknown): value is YoiPlugin {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[PLUGIN_BRAND] === true &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { apply?: unknown }).apply === 'function'
  );
}
