import type { McpServer } from '@agentclientprotocol/sdk';

/** One MCP server in yoi's config form (`mcp.servers.<name>`). */
export type YoiMcpServer =
  { command: string; args: string[]; env: Record<string, string> } | { url: string; headers: Record<string, string> };

export interface McpMapping {
  /** By yoi server name (letters, digits, `_`, `-`; at most 32; unique). */
  readonly servers: Record<string, YoiMcpServer>;
  /** What could not be handed over, one line each. */
  readonly skipped: string[];
}

/**
 * The MCP servers an editor passes in `session/new` / `session/load`, in the form of yoi's
 * `mcp.servers` section: stdio servers keep command, args and env; `http` and `sse` servers
 * their URL and headers (yoi's HTTP transport falls back to SSE). Names become valid yoi server
 * names (other characters → `-`, at most 32, `__` never, duplicates numbered). ACP-transport
 * servers (`type: "acp"`) have no yoi transport and are skipped.
 */
export function mapMcpServers(servers: readonly McpServer[]): McpMapping {
  const out: Record<string, YoiMcpServer> = {};
  const skipped: string[] = [];
  for (const server of servers) {
    const name = uniqueName(server.name, out);
    if ('type' in server && server.type === 'acp') {
      skipped.push(`MCP server ${JSON.stringify(server.name)}: the "acp" transport is not supported`);
      continue;
    }
    if ('url' in server) {
      out[name] = { url: server.url, headers: Object.fromEntries(server.headers.map((h) => [h.name, h.value])) };
    } else if ('command' in server) {
      out[name] = {
        command: server.command,
        args: [...server.args],
        env: Object.fromEntries(server.env.map((v) => [v.name, v.value])),
      };
    }
  }
  return { servers: out, skipped };
}

function uniqueName(raw: string, taken: Record<string, unknown>): string {
  let base = raw
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^[-_]+/, '')
    .slice(0, 32)
    .replace(/[-_]+$/, '');
  if (base === '') base = 'server';
  let name = base;
  for (let n = 2; Object.hasOwn(taken, name); n++) name = `${base.slice(0, 32 - String(n).length - 1)}-${n}`;
  return name;
}
