import type { z } from 'zod';
import { YoiError } from '../errors/YoiError.js';
import { formatZodError } from '../errors/formatZodError.js';
import type { PluginApi } from './PluginApi.js';
import { PLUGIN_BRAND, type PluginConfigSection, type YoiPlugin } from './YoiPlugin.js';

/** What a plugin author writes. */
export interface PluginDefinition<S extends z.ZodType | undefined, C extends z.ZodType | undefined> {
  /** Unique name: `yoi:` for built-ins, your own prefix otherwise (`acme:jira`). */
  name: string;
  /** zod schema of the options; the factory validates against it before anything is applied. */
  options?: S;
  /**
   * The plugin's own section of the config file: `key` (`permissions`, or a path into a core
   * section such as `limits.fileRefBytes`) and the schema that validates it. Errors name the key
   * path and the plugin. The parsed value is `api.config`.
   */
  config?: { key: string; schema: C };
  /** Plugins that must be applied before this one (by name). */
  dependsOn?: readonly string[];
  /** Taps hooks. Synchronous and free of I/O: do the work inside the hooks. */
  apply(api: PluginApi<PluginConfigOut<C>>, options: PluginOptionsOut<S>): void;
}

/** The options `apply` receives: the schema's output (defaults applied). */
export type PluginOptionsOut<S> = S extends z.ZodType ? z.output<S> : undefined;
/** The options the factory takes: the schema's input. */
export type PluginOptionsIn<S> = S extends z.ZodType ? z.input<S> : undefined;
/** `api.config`: the config section's schema output. */
export type PluginConfigOut<C> = C extends z.ZodType ? z.output<C> : undefined;

/** Options are optional when the schema accepts `undefined` (or there is no schema). */
export type PluginFactory<S extends z.ZodType | undefined> =
  undefined extends PluginOptionsIn<S>
    ? (options?: PluginOptionsIn<S>) => YoiPlugin
    : (options: PluginOptionsIn<S>) => YoiPlugin;

const KEY = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)?$/;

/**
 * Declares a plugin. Returns a factory: call it (in `yoi.config.ts`, or in `defaultPlugins()`)
 * with the plugin's options to get a `YoiPlugin`. Bad options throw `YOI_ERR_PLUGIN_OPTIONS`
 * naming the plugin and the key, at config load time rather than mid-run.
 */
export function definePlugin<S extends z.ZodType | undefined = undefined, C extends z.ZodType | undefined = undefined>(
  definition: PluginDefinition<S, C>,
): PluginFactory<S> {
  const { name, options: schema, apply } = definition;
  if (typeof name !== 'string' || name.trim() === '' || name !== name.trim()) {
    throw new YoiError(
      'YOI_ERR_PLUGIN_INVALID',
      `a plugin needs a non-empty name without surrounding spaces (got ${JSON.stringify(name)})`,
    );
  }
  if (typeof apply !== 'function')
    throw new YoiError('YOI_ERR_PLUGIN_INVALID', `plugin ${name} has no apply() function`);
  const dependsOn = Object.freeze([...(definition.dependsOn ?? [])]);
  const config = definition.config;
  if (
    config !== undefined &&
    (typeof config.key !== 'string' || !KEY.test(config.key) || typeof config.schema?.safeParse !== 'function')
  ) {
    throw new YoiError(
      'YOI_ERR_PLUGIN_INVALID',
      `plugin ${name}: config needs a key (\`name\` or \`section.name\`) and a zod schema`,
    );
  }
  const section: PluginConfigSection | undefined =
    config && Object.freeze({ key: config.key, schema: config.schema as z.ZodType });

  const factory = (input?: unknown): YoiPlugin => {
    let options: unknown = undefined;
    if (schema) {
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        throw new YoiError(
          'YOI_ERR_PLUGIN_OPTIONS',
          `plugin ${name}: invalid options: ${formatZodError(parsed.error, schema)}`,
        );
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
      ...(section ? { config: section } : {}),
      apply: (api: PluginApi) => apply(api as PluginApi<PluginConfigOut<C>>, options as PluginOptionsOut<S>),
    });
  };
  return factory as PluginFactory<S>;
}
