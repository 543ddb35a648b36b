import { YoiError } from '../errors/YoiError.js';
import { PluginHost } from '../plugin/PluginHost.js';
import type { ResolvedConfig } from './resolveConfig.js';
import { labelOf } from './loadConfig.js';

/**
 * Applies the config's plugins to a fresh PluginHost and checks that `model.provider` names a
 * provider some plugin registers (unless `checkProvider: false`, for tools that only list
 * plugins). The host is not started: the pod starts it once listening.
 */
export function createHostFromConfig(config: ResolvedConfig, { checkProvider = true } = {}): PluginHost {
  const host = new PluginHost();
  host.applyPlugins(config.plugins, {
    sections: config.sections,
    project: { cwd: config.cwd, projectDir: config.projectDir, configPath: config.configPath },
  });
  if (!checkProvider) return host;

  const provider = config.model.provider;
  const available = host.keysOf('providers');
  if (!available.includes(provider)) {
    const list = available.join(', ') || 'none';
    const label = config.configPath ? labelOf(config.cwd, config.configPath) : undefined;
    const key = label && isPackageJson(label) ? 'yoi.model.provider' : 'model.provider';
    throw new YoiError(
      'YOI_ERR_UNKNOWN_PROVIDER',
      config.modelIsDefault
        ? `no model configured, and the default provider "${provider}" is not available (available: ${list}); set model.provider${label ? ` in ${label}` : ''}`
        : `${label ? `${label}: ` : ''}${key}: unknown provider "${provider}" (available: ${list})`,
    );
  }
  return host;
}

function isPackageJson(label: string): boolean {
  return label === 'package.json' || label.endsWith('/package.json');
}
