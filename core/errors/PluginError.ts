import { YoiError } from './YoiError.js';

/**
 * A plugin's tap (or its `apply()`) threw or rejected. Names the plugin and the hook label
 * (`resolveSegment(jira)`, or `apply`), so a failure is never anonymous.
 */
export class PluginError extends YoiError {
  declare readonly code: 'YOI_ERR_PLUGIN';
  readonly plugin: string;
  readonly hook: string;
  declare readonly cause: unknown;

  constructor(plugin: string, hook: string, cause: unknown) {
    super('YOI_ERR_PLUGIN', `plugin ${plugin} failed in ${hook}: ${messageOf(cause)}`, { cause });
    this.name = 'PluginError';
    this.plugin = plugin;
    this.hook = hook;
  }
}

/** True for a PluginError, including one from another copy of yoi. */
export function isPluginError(value: unknown): value is PluginError {
  return value instanceof Error && (value as { code?: unknown }).code === 'YOI_ERR_PLUGIN'
    && typeof (value as { plugin?: unknown }).plugin === 'string';
}

function messageOf(cause: unknown): string {
  if (cause instanceof Error) return cause.message.split('\n')[0] || cause.name;
  return String(cause);
}
