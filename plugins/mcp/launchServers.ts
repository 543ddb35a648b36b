import { z } from 'zod';
import { HttpServerSchema, ServerName, StdioServerSchema, type McpServerConfig } from './McpConfigSchema.js';

/**
 * `launch.mcp`: servers a pod gets for this launch only (`yoi pod start --mcp-servers FILE`,
 * which `yoi acp` writes from the editor's `session/new` servers). Opaque to the core; this
 * plugin owns the shape, as it owns the config section's.
 */
const LaunchMcpSchema = z.object({ servers: z.record(z.string(), z.unknown()) });

/** At most this many servers from one launch: each one may start a process. */
export const MAX_LAUNCH_SERVERS = 64;

export interface LaunchServers {
  readonly servers: Record<string, McpServerConfig>;
  /** One line per server left out, for an alert. */
  readonly problems: string[];
}

/**
 * The launch's servers merged under the configured ones: a name the config (or `mcp({...})`)
 * already has keeps the configured server. Each server is checked on its own, so one bad entry
 * costs that entry only.
 */
export function withLaunchServers(
  configured: Readonly<Record<string, McpServerConfig>>,
  launch: Readonly<Record<string, unknown>>,
): LaunchServers {
  if (launch.mcp === undefined) return { servers: { ...configured }, problems: [] };
  const parsed = LaunchMcpSchema.safeParse(launch.mcp);
  if (!parsed.success)
    return {
      servers: { ...configured },
      problems: ['MCP servers of this launch ignored: expected {servers: {<name>: server}}'],
    };
  const added: Record<string, McpServerConfig> = {};
  const problems: string[] = [];
  const entries = Object.entries(parsed.data.servers);
  for (const [name, server] of entries.slice(0, MAX_LAUNCH_SERVERS)) {
    if (Object.hasOwn(configured, name)) {
      problems.push(`MCP server ${JSON.stringify(name)} of this launch ignored: the config has a server of that name`);
      continue;
    }
    const why = problemOf(name, server);
    if (typeof why === 'string') problems.push(`MCP server ${JSON.stringify(name)} of this launch ignored: ${why}`);
    else added[name] = why.server;
  }
  if (entries.length > MAX_LAUNCH_SERVERS)
    problems.push(`MCP servers of this launch: only the first ${MAX_LAUNCH_SERVERS} of ${entries.length} are used`);
  return { servers: { ...added, ...configured }, problems };
}

/** The server, or why not: checked against the one transport its fields name, for a precise line. */
function problemOf(name: string, server: unknown): string | { server: McpServerConfig } {
  const named = ServerName.safeParse(name);
  if (!named.success) return named.error.issues[0]?.message ?? 'not a server name';
  const schema =
    server !== null && typeof server === 'object' && 'url' in server ? HttpServerSchema : StdioServerSchema;
  const parsed = schema.safeParse(server);
  if (parsed.success) return { server: parsed.data };
  const issue = parsed.error.issues[0];
  return issue ? `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}` : 'not a server';
}
