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
  const [{ loadConfig }, { createHostFromConfig }, { defaultPlugins }] = await Promise.all([
    import('../core/config/loadConfig.js'),
    import('../core/config/createHostFromConfig.js'),
    import('../plugins/index.js'),
  ]);
  const config = await loadConfig({
    cwd: options.cwd ?? process.cwd(),
    configFile: options.configFile,
    env: options.env ?? process.env,
    defaultPlugins: defaultPlugins(),
    virtualModules: async () => ({ yoi: await import('../index.js'), 'yoi/plugins': await import('../plugins/index.js') }),
  });
  return { config, host: createHostFromConfig(config, { checkProvider: options.checkProvider ?? true }) };
}
