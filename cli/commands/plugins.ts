import { YoiCommand } from '../YoiCommand.js';
import { configFlags, jsonFlag } from '../flags.js';

export default class PluginsCommand extends YoiCommand {
  static override summary = 'List the applied plugins, the hooks they tap and what they share.';
  static override description =
    'Applies the configured plugins (built-ins unless the config lists its own) and shows, for each, the hooks and kinds it taps (e.g. resolveSegment(paste) or providers(echo)), the config key it owns, the services it provides and uses, the segment kinds it declares with their sigils, and the protocol methods and events it adds.';
  static override examples = ['<%= config.bin %> plugins', '<%= config.bin %> plugins --json'];
  static override flags = { ...configFlags, ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(PluginsCommand);
    const { loadProject } = await import('../loadProject.js');
    // Listing must work even when model.provider is wrong: this is where one looks it up.
    const { config, host } = await loadProject({ configFile: flags.config, checkProvider: false });
    const { effectivePolicy, policyLine } = await import('../effectivePolicy.js');
    const policy = effectivePolicy(config);
    const plugins = host.describePlugins().map((p) => (policy && p.name === 'yoi:permissions' ? { ...p, policy } : p));
    if (flags.json) {
      this.printJson(plugins);
      return;
    }
    if (plugins.length === 0) {
      this.print('no plugins applied');
      return;
    }
    const width = Math.max(...plugins.map((p) => p.name.length));
    for (const p of plugins) {
      this.print(`${p.name.padEnd(width)}  ${p.hooks.join(', ') || '(no taps)'}`);
      const more = [
        p.configKey && `config ${p.configKey}`,
        p.provides.length > 0 && `provides ${p.provides.join(', ')}`,
        p.uses.length > 0 && `uses ${p.uses.join(', ')}`,
        p.segmentKinds.length > 0 && `kinds ${p.segmentKinds.join(', ')}`,
        p.protocol.length > 0 && p.protocol.join(', '),
      ].filter(Boolean);
      if (more.length > 0) this.print(`${''.padEnd(width)}  ${more.join(' · ')}`);
      if ('policy' in p && policy) this.print(`${''.padEnd(width)}  ${policyLine(policy)}`);
    }
    const kinds = host.keysOf('resolveSegment').map((k) => {
      const sigil = host.segmentKinds.get(k)?.sigil;
      return sigil ? `${k} (${sigil})` : k;
    });
    const summary: [string, string[]][] = [
      ['providers', host.keysOf('providers')],
      ['tools', host.keysOf('tools')],
      ['segment kinds', kinds],
      ['pod events', host.keysOf('podEvent')],
    ];
    this.print('');
    for (const [label, keys] of summary) this.print(`${label}: ${keys.join(', ') || 'none'}`);
  }
}
