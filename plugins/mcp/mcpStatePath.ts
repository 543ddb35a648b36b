import path from 'node:path';

/** `<runtime base>/<pod name>/mcp.json`: where a pod describes its MCP servers. */
export function mcpStatePath(runtimeBase: string, podName: string): string {
  return path.join(runtimeBase, podName, 'mcp.json');
}
