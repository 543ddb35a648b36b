import type { ResolvedConfig } from '../core/config/resolveConfig.js';
import type { PluginHost } from '../core/plugin/PluginHost.js';

export interface ProjectOptions {
  /** `--config FILE`. */
  readonly configFile?: string;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Verify that `model.provider` is registered (default true). */
  readonly checkProvider?: boolean;
}

/**
 * Loads the config the way every command does: built-in plugins as the default list, and
 * `import ... from 'yoi'` in a config file served by this very copy of yoi. Then applies the
 * plugins to a fresh host. Imported lazily by commands: it pulls in zod, cosmiconfig, jiti.
 */
export async function loadProject(options: ProjectOptions = {}): Promise<{ config: ResolvedConfig; host: PluginHost }> {
  const [config, { createHostFromConfig }] = await Promise.all([
    loadProjectConfig(options),
    import('../core/config/createHostFromConfig.js'),
  ]);
  return { config, host: createHostFromConfig(config, { checkProvider: options.checkProvider ?? true }) };
}

/**
 * The config alone, found, loaded and validated as loadProject does, without applying its
 * plugins to a host: what a command that only needs the pod's name or session directory reads.
 */
export async function loadProjectConfig(options: ProjectOptions = {}): Promise<ResolvedConfig> {
  const [{ loadConfig }, { defaultPlugins }] = await Promise.all([
    import('../core/config/loadConfig.js'),
    import('../plugins/index.js'),
  ]);
  return loadConfig({
    cwd: options.cwd ?? process.cwd(),
    configFile: options.configFile,
    env: options.env ?? process.env,
    defaultPlugins: defaultPlugins(),
    virtualModules: async () => ({
      yoi: await import('../index.js'),
      'yoi/plugins': await import('../plugins/index.js'),
    }),
  });
}
