import { YoiCommand } from '../YoiCommand.js';

export default class Acp extends YoiCommand {
  static override summary = 'Serve the Agent Client Protocol on stdio, for editors (Zed, JetBrains, Neovim, Emacs).';
  static override description =
    "An editor starts `yoi acp` and speaks ACP on its stdin/stdout. Each session runs in the pod of its project (the config's name, else one named after the directory), started in the background when none runs; it outlives the editor, and `yoi attach --pod NAME` watches the same conversation. Logs go to stderr.";
  static override examples = ['<%= config.bin %> acp'];

  async run(): Promise<void> {
    await this.parse(Acp);
    const { runAcpAgent } = await import('../acp/runAcpAgent.js');
    await runAcpAgent({ version: this.config.version });
  }
}
