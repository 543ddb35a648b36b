/**
 * The MCP SDK's client side, imported on first use: a pod without MCP servers (and every command
 * that loads the plugin list) never pays for it.
 */
async function importSdk() {
  // One after another: concurrent first imports of shared modules break jest's ESM linker.
  const client = await import('@modelcontextprotocol/sdk/client/index.js');
  const stdio = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const streamable = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const sse = await import('@modelcontextprotocol/sdk/client/sse.js');
  const types = await import('@modelcontextprotocol/sdk/types.js');
  return {
    Client: client.Client,
    StdioClientTransport: stdio.StdioClientTransport,
    StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
    SSEClientTransport: sse.SSEClientTransport,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    ResourceListChangedNotificationSchema: types.ResourceListChangedNotificationSchema,
    PromptListChangedNotificationSchema: types.PromptListChangedNotificationSchema,
  };
}

export type Sdk = Awaited<ReturnType<typeof importSdk>>;

let loading: Promise<Sdk> | undefined;

export function loadSdk(): Promise<Sdk> {
  loading ??= importSdk().catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading;
}
