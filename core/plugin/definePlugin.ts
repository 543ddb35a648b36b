import type { z } from 'zod';
import { YoiError } from '../errors/YoiError.js';
import { formatZodError } from '../errors/formatZodError.js';
import type { PluginHost } from './PluginHost.js';
import { PLUGIN_BRAND, type YoiPlugin } from './YoiPlugin.js';

/** What a plugin author writes. */
export interface PluginDefinition<S extends z.ZodType | undefined> {
  /** Unique name: `yoi:` for built-ins, your own prefix otherwise (`acme:jira`). */
  name: string;
  /** zod schema of the options; the factory validates against it before anything is applied. */
  options?: S;
  /** Plugins that must be applied before this one (by name). */
  dependsOn?: readonly string[];
  /** Taps hooks. Synchronous and free of I/O: do the work inside the hooks. */
  apply(host: PluginHost, options: OptionsOut<S>): void;
}

type OptionsOut<S> = S extends z.ZodType ? z.output<S> : undefined;
type OptionsIn<S> = S extends z.ZodType ? z.input<S> : undefined;

/** Options are optional when the schema accepts `undefined` (or there is no schema). */
export type PluginFactory<S extends z.ZodType | undefined> =
  undefined extends OptionsIn<S> ? (options?: OptionsIn<S>) => YoiPlugin : (options: OptionsIn<S>) => YoiPlugin;

/**
 * Declares a plugin. Returns a factory: call it (in `yoi.config.ts`, or in `defaultPlugins()`)
 * with the plugin's options to get a `YoiPlugin`. Bad options throw `YOI_ERR_PLUGIN_OPTIONS`
 * naming the plugin and the key, at config load time rather than mid-run.
 */
export function definePlugin<S extends z.ZodType | undefined = undefined>(definition: PluginDefinition<S>): PluginFactory<S> {
  const { name, options: schema, apply } = definition;
  if (typeof name !== 'string' || name.trim() === '' || name !== name.trim()) {
    throw new YoiError('YOI_ERR_PLUGIN_INVALID', `a plugin needs a non-empty name without surrounding spaces (got ${JSON.stringify(name)})`);
  }
  if (typeof apply !== 'function') throw new YoiError('YOI_ERR_PLUGIN_INVALID', `plugin ${name} has no apply() function`);
  const dependsOn = Object.freeze([...(definition.dependsOn ?? [])]);

  const factory = (input?: unknown): YoiPlugin => {
    let options: unknown = undefined;
    if (schema) {
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        throw new YoiError('YOI_ERR_PLUGIN_OPTIONS', `plugin ${name}: invalid options: ${formatZodError(parsed.error, schema)}`);
      }
      options = parsed.data;
    } else if (input !== undefined) {
      throw new YoiError('YOI_ERR_PLUGIN_OPTIONS', `plugin ${name}: takes no options`);
    }
    return Object.freeze({
      [PLUGIN_BRAND]: true as const,
      name,
      options,
      dependsOn,
      apply: (host: PluginHost) => apply(host, options as OptionsOut<S>),
    });
  };
  return factory as PluginFactory<S>;
}
