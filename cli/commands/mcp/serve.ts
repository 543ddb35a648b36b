import { YoiCommand } from '../../YoiCommand.js';

export default class McpServe extends YoiCommand {
  static override summary =
    "Serve this user's pods to MCP clients over stdio (yoi_pods, yoi_start, yoi_send, yoi_history).";
  static override description =
    'An MCP server on stdin/stdout for Claude Code, Codex or any MCP client. Register it with `claude mcp add yoi -- yoi mcp serve`, or in ~/.codex/config.toml as [mcp_servers.yoi] command = "yoi", args = ["mcp", "serve"]. Runs until the client closes stdin.';
  static override examples = ['claude mcp add yoi -- <%= config.bin %> mcp serve'];

  async run(): Promise<void> {
    await this.parse(McpServe);
    const [{ createYoiMcpServer }, { StdioServerTransport }, { startDetached }] = await Promise.all([
      import('../../mcp/yoiMcpServer.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('../../startDetached.js'),
    ]);
    const server = createYoiMcpServer({
      version: this.config.version,
      startPod: (name, dir) => startDetached(['--name', name], { name }, { cwd: dir }),
    });
    const transport = new StdioServerTransport();
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      process.stdin.once('end', () => resolve());
    });
    await server.connect(transport);
    await closed;
    await server.close();
  }
}
