import { YoiCommand } from '../YoiCommand.js';
import { configFlags, jsonFlag } from '../flags.js';

export default class ConfigCommand extends YoiCommand {
  static override summary = 'Show the resolved configuration.';
  static override description =
    'Finds the config file (or uses --config / YOI_CONFIG), validates it, applies the defaults and prints the result. Plugins are shown by name, credentials masked.';
  static override examples = [
    '<%= config.bin %> config',
    '<%= config.bin %> config --json --config ./ci.yoi.config.ts',
  ];
  static override flags = { ...configFlags, ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(ConfigCommand);
    const { loadProject } = await import('../loadProject.js');
    const { configToJson } = await import('../../core/config/configToJson.js');
    const { config } = await loadProject({ configFile: flags.config });
    const { effectivePolicy } = await import('../effectivePolicy.js');
    const json = configToJson(config);
    // The permission policy as it applies includes the rules saved in .yoi/permissions.json.
    const policy = effectivePolicy(config);
    if (policy) json.permissions = policy;
    if (flags.json) {
      this.printJson(json);
      return;
    }
    const { stringify } = await import('yaml');
    const { configPath, projectDir, cwd: _cwd, modelIsDefault, ...shown } = json;
    this.print(configPath ? `# config: ${String(configPath)}` : '# no config file found: all defaults');
    this.print(`# project: ${String(projectDir)}`);
    if (modelIsDefault) this.print('# no model configured: using the offline echo provider');
    process.stdout.write(stringify(shown, { lineWidth: 0 }));
  }
}
