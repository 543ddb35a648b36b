import { YoiError, isYoiError } from './YoiError.js';

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
  return (
    isYoiError(value) && value.code === 'YOI_ERR_PLUGIN' && typeof (value as { plugin?: unknown }).plugin === 'string'
  );
}

function messageOf(cause: unknown): string {
  const message = (cause as { message?: unknown } | null)?.message;
  if (typeof message === 'string') return message.split('\n')[0] || String((cause as Error).name);
  return String(cause);
}
