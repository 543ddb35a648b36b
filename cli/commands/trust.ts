import { YoiCommand } from '../YoiCommand.js';
import { configFlags, jsonFlag } from '../flags.js';

export default class Trust extends YoiCommand {
  static override summary =
    "Trust this project's config as it is now, so pods spawned by SpawnPod (and commands, for a config nested in another project) may load it.";
  static override description = [
    "A pod spawned by another pod loads the same config, and a JS/TS config runs code as it loads. So a spawned pod refuses a config that changed since its parent loaded it (one the model might have edited) until you trust that content: yoi trust records the config file's path and the SHA-256 of its content (the file and the local modules it imports) in ~/.config/yoi/trust.json (or $XDG_CONFIG_HOME/yoi/trust.json).",
    "The same holds for a config inside another yoi project (a directory above it, below your home, holds .yoi/): that project's pods can write it, so yoi loads it, from any command, only once you trust its content.",
    'Nothing of the config runs. Otherwise, pods you start yourself load the config as always.',
  ].join('\n\n');
  static override examples = ['<%= config.bin %> trust', '<%= config.bin %> trust --config ./ci.yoi.config.ts'];
  static override flags = { ...configFlags, ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(Trust);
    const [{ findConfigFile }, { configSources }, { TrustStore }, { YoiError }, fs, path] = await Promise.all([
      import('../../core/config/findConfigFile.js'),
      import('../../core/config/configSources.js'),
      import('../../core/config/TrustStore.js'),
      import('../../core/errors/YoiError.js'),
      import('node:fs'),
      import('node:path'),
    ]);
    const cwd = process.cwd();
    const configPath = await findConfigFile({ cwd, configFile: flags.config });
    if (configPath === null)
      throw new YoiError('YOI_ERR_CONFIG_NOT_FOUND', `no config file found from ${cwd}: nothing to trust`);
    if (!fs.statSync(configPath, { throwIfNoEntry: false })?.isFile())
      throw new YoiError('YOI_ERR_CONFIG_NOT_FOUND', `config file not found: ${flags.config ?? configPath}`);
    const sources = await configSources(configPath);
    const entry = {
      path: configPath,
      digest: sources.digest,
      files: sources.files.map((f) => f.path),
      trusted_at: Date.now(),
    };
    const store = new TrustStore();
    store.trust(entry);
    if (flags.json) {
      this.printJson({ ...entry, store: store.file });
      return;
    }
    this.print(`trusted ${configPath} as it is now (sha256 ${sources.digest}), in ${store.file}:`);
    for (const file of entry.files) this.print(`  ${path.relative(cwd, file) || file}`);
  }
}
