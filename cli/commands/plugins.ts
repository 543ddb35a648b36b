import { YoiCommand } from '../YoiCommand.js';
import { configFlags, jsonFlag } from '../flags.js';

export default class PluginsCommand extends YoiCommand {
  static override summary = 'List the applied plugins and the hooks they tap.';
  static override description = 'Applies the configured plugins (built-ins unless the config lists its own) and shows, for each, the hooks and kinds it taps, e.g. resolveSegment(paste) or providers(echo).';
  static override examples = ['<%= config.bin %> plugins', '<%= config.bin %> plugins --json'];
  static override flags = { ...configFlags, ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(PluginsCommand);
    const { loadProject } = await import('../loadProject.js');
    // Listing must work even when model.provider is wrong: this is where one looks it up.
    const { host } = await loadProject({ configFile: flags.config, checkProvider: false });
    const plugins = host.describePlugins();
    if (flags.json) {
      this.print(JSON.stringify(plugins, null, 2));
      return;
    }
    if (plugins.length === 0) {
      this.print('no plugins applied');
      return;
    }
    const width = Math.max(...plugins.map((p) => p.name.length));
    for (const { name, hooks } of plugins) this.print(`${name.padEnd(width)}  ${hooks.join(', ') || '(no taps)'}`);
    const summary: [string, string[]][] = [
      ['providers', host.keysOf('providers')],
      ['tools', host.keysOf('tools')],
      ['segment kinds', host.keysOf('resolveSegment')],
      ['pod events', host.keysOf('podEvent')],
    ];
    this.print('');
    for (const [label, keys] of summary) this.print(`${label}: ${keys.join(', ') || 'none'}`);
  }
}
