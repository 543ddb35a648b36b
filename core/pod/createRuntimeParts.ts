import { YoiError } from '../errors/YoiError.js';
import { isPluginError } from '../errors/PluginError.js';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import type { PodInfo } from '../hooks/HookTypes.js';
import type { PluginHost } from '../plugin/PluginHost.js';
import type { Provider } from '../provider/Provider.js';
import type { Tool } from '../tools/Tool.js';

/**
 * Creates the configured provider through `providers.for(name)`; a factory that throws (a
 * missing API key) stops the pod at start with one clear line naming the plugin.
 */
export function createProvider(
  host: PluginHost,
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv,
  podName?: string,
): Provider {
  const name = config.model.provider;
  const hook = host.hooks.providers.get(name);
  if (!hook || hook.taps.length === 0) {
    throw new YoiError(
      'YOI_ERR_UNKNOWN_PROVIDER',
      `unknown provider "${name}" (available: ${host.keysOf('providers').join(', ') || 'none'})`,
    );
  }
  let provider: Provider | undefined;
  try {
    provider = hook.call(config.model, { podName, projectDir: config.projectDir, cwd: config.cwd, env });
  } catch (e) {
    if (isPluginError(e))
      throw new YoiError('YOI_ERR_PROVIDER', `cannot start provider "${name}": ${(e as Error).message}`);
    throw e;
  }
  if (!provider) throw new YoiError('YOI_ERR_UNKNOWN_PROVIDER', `no plugin created provider "${name}"`);
  return provider;
}

/** Creates every registered tool (in registration order); a factory may leave its tool out. */
export function createTools(host: PluginHost, pod: PodInfo): Map<string, Tool> {
  const tools = new Map<string, Tool>();
  for (const name of host.keysOf('tools')) {
    const tool = host.hooks.tools.get(name)?.call(pod);
    if (tool) tools.set(tool.name, tool);
  }
  return tools;
}
