import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { oneLine as describe } from './oneLine.js';
import type { McpServerConfig } from './McpConfigSchema.js';
import type { McpServerConnection } from './McpServerConnection.js';
import { toolOutput } from './toolOutput.js';
import { MAX_DESCRIPTION, MAX_SCHEMA_CHARS } from './listedCopy.js';
import type { Tool as PodTool, ToolOutput } from '../../core/api.js';

/** Longest tool name the providers accept (OpenAI and Anthropic: 64, `[A-Za-z0-9_-]`). */
const MAX_NAME = 64;

/**
 * `mcp__<server>__<tool>`, with characters providers refuse replaced by `_`; a name over 64
 * characters is cut and given a short hash of the original so it stays unique.
 */
export function podToolName(server: string, tool: string): string {
  const name = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_');
  if (name.length <= MAX_NAME) return name;
  const hash = createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);
  return `${name.slice(0, MAX_NAME - 9)}_${hash}`;
}

/**
 * The pod tool name of each of a server's tools (by the server's name). Two names that become the
 * same once cleaned (`a.b`, `a_b`) both stay callable: the later one gets a hash suffix. `used`:
 * names other servers took already.
 */
export function podToolNames(
  server: string,
  tools: readonly { name: string }[],
  used = new Set<string>(),
): Map<string, string> {
  const names = new Map<string, string>();
  for (const { name } of tools) {
    let pod = podToolName(server, name);
    if (used.has(pod)) {
      const hash = createHash('sha256').update(`${server}\0${name}`).digest('hex').slice(0, 8);
      pod = `${pod.slice(0, MAX_NAME - 9)}_${hash}`;
    }
    used.add(pod);
    names.set(name, pod);
  }
  return names;
}

/**
 * Pod tool names across all servers, in their order (server → tool → name). `mcp__x___t` is both
 * server `x_`'s tool `t` and server `x`'s tool `_t`: the later one gets a hash suffix, never
 * hiding the other.
 */
export function allPodToolNames(
  servers: readonly { name: string; tools: readonly { name: string }[] }[],
): Map<string, Map<string, string>> {
  const used = new Set<string>();
  return new Map(servers.map((s) => [s.name, podToolNames(s.name, s.tools, used)]));
}

/**
 * What all MCP tools together may put before the model, in characters of names, descriptions and
 * schemas (~130k tokens): 1,000 tools within the per-tool bounds made one request 64 MB.
 */
export const MAX_DEFINITION_CHARS = 512 * 1024;

/** The tools that fit in `maxChars`, in order, and those that do not. */
export function fitDefinitions(
  tools: readonly PodTool[],
  maxChars = MAX_DEFINITION_CHARS,
): { kept: PodTool[]; dropped: PodTool[] } {
  const kept: PodTool[] = [];
  const dropped: PodTool[] = [];
  let total = 0;
  for (const tool of tools) {
    total += tool.name.length + tool.description.length + JSON.stringify(tool.inputJsonSchema ?? {}).length;
    (total <= maxChars ? kept : dropped).push(tool);
  }
  return { kept, dropped };
}

/** `*` matches any run of characters; everything else literally. */
function matches(pattern: string, name: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(name);
}

/** Whether the server's `tools: {allow, deny}` lets the pod offer this tool (deny wins). */
export function toolAllowed(config: McpServerConfig, tool: string): boolean {
  const filter = config.tools;
  if (filter?.deny?.some((p) => matches(p, tool))) return false;
  return filter?.allow === undefined || filter.allow.some((p) => matches(p, tool));
}

/** Loose check only: the server validates the arguments against its own schema. */
const ArgumentsSchema = z.record(z.string(), z.unknown());

/**
 * A pod tool calling one MCP tool: the server's JSON Schema is what the model sees; the call is
 * cancelled with the run (the SDK sends `notifications/cancelled`), times out after the server's
 * `timeoutMs` without an answer or progress, and reports progress to clients. Every failure —
 * a server that is not ready, crashed mid-call, timed out — is an `is_error` result.
 */
export function makePodTool(
  conn: McpServerConnection,
  tool: McpTool,
  name = podToolName(conn.name, tool.name),
): PodTool<Record<string, unknown>> {
  const label = `${conn.name}/${tool.name}`;
  let description = tool.description?.trim() || tool.title || `${tool.name} (from MCP server ${conn.name})`;
  if (description.length > MAX_DESCRIPTION) description = `${description.slice(0, MAX_DESCRIPTION)}…`;
  // A schema too large for a prompt is replaced by "an object": the server still validates.
  const schemaFits = JSON.stringify(tool.inputSchema).length <= MAX_SCHEMA_CHARS;
  return {
    name,
    description,
    input: ArgumentsSchema,
    inputJsonSchema: schemaFits
      ? { ...tool.inputSchema, type: 'object' }
      : { type: 'object', additionalProperties: true },
    async execute(input, ctx): Promise<ToolOutput> {
      // ctx.signal is this call's own (core gives each call one), so the listener the SDK leaves
      // on it goes with the call rather than piling up on the run's.
      try {
        const result = await conn.callTool(
          tool.name,
          input,
          ctx.signal,
          ctx.progress
            ? (p) =>
                ctx.progress!({
                  progress: p.progress,
                  ...(p.total !== undefined ? { total: p.total } : {}),
                  ...(p.message !== undefined ? { message: p.message } : {}),
                })
            : undefined,
        );
        return toolOutput(label, result);
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        return { summary: `${label} failed: ${describe(e)}`, is_error: true };
      }
    },
  };
}
