import { YoiCommand } from '../../YoiCommand.js';
import { configFlags, jsonFlag, podFlags } from '../../flags.js';

export default class McpList extends YoiCommand {
  static override summary = "List a pod's MCP servers: state, tools, resources, prompts, last error.";
  static override description =
    'Reads what the running pod last wrote about its MCP servers (<runtime dir>/<pod>/mcp.json, rewritten on every change). States: starting, ready, failed, restarting, disabled.';
  static override examples = ['<%= config.bin %> mcp list', '<%= config.bin %> mcp list --pod reviewer --json'];
  static override flags = { ...configFlags, ...podFlags, ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(McpList);
    const [{ readMcpState }, { formatMcpServer }] = await Promise.all([
      import('../../mcp/readMcpState.js'),
      import('../../mcp/formatMcpState.js'),
    ]);
    const { name, state } = await readMcpState(flags);
    if (flags.json) {
      this.printJson(state ?? { pod_name: name, updated_at_ms: 0, servers: [] });
      return;
    }
    if (!state) {
      this.print(`pod ${name} has no MCP plugin (add mcp({ servers }) to its config's plugins)`);
      return;
    }
    if (state.servers.length === 0) {
      this.print(`pod ${name} has no MCP servers configured`);
      return;
    }
    for (const server of state.servers) for (const line of formatMcpServer(server)) this.print(line);
  }
}
