import { z } from 'zod';
import { DEFAULT_FILE_REF_BYTES } from '../resolvers/shared/fileRefLimit.js';
import { utf8Boundary } from '../resolvers/shared/utf8Boundary.js';
import { oneLine as describe } from './oneLine.js';
import { describeResource } from './describeContent.js';
import type { McpManager } from './McpManager.js';
import { defineSegmentKind, type CompleteContext, type Resolution, type ResolveContext } from '../../core/api.js';

export const RESOURCE_KIND = 'mcp_resource';

/** `{server, uri}` or `ref: "<server>:<uri>"`; which of them is given is checked when it resolves. */
export const McpResourceSegmentSchema = z.looseObject({
  kind: z.literal(RESOURCE_KIND),
  server: z.string().optional(),
  uri: z.string().optional(),
  ref: z.string().optional(),
});

/** `&server:uri` in clients: an MCP server's resource read into the context. */
export const McpResourceKind = defineSegmentKind({
  kind: RESOURCE_KIND,
  schema: McpResourceSegmentSchema,
  sigil: '&',
  field: 'ref',
  description: "an MCP server's resource (<server>:<uri>)",
});

/** `{server, uri}`, or `ref: "<server>:<uri>"` (what a client that knows only a sigil and a token sends). */
export function resourceTarget(segment: Record<string, unknown>): { server: string; uri: string } | string {
  const { server, uri, ref } = segment;
  if (typeof server === 'string' && typeof uri === 'string' && server !== '' && uri !== '') return { server, uri };
  if (typeof ref === 'string') {
    const colon = ref.indexOf(':');
    if (colon > 0 && colon < ref.length - 1) return { server: ref.slice(0, colon), uri: ref.slice(colon + 1) };
    return `malformed mcp_resource ref ${JSON.stringify(ref.slice(0, 200))}: write <server>:<uri>`;
  }
  return 'malformed mcp_resource segment: give `server` and `uri` (strings), or `ref: "<server>:<uri>"`';
}

/**
 * Reads an MCP resource into the context (`[Resource: <server>:<uri>]`): text parts up to the
 * `@file` size limit (cut at a UTF-8 boundary, with a warning), binary parts as a labelled summary.
 */
export async function resolveResource(
  manager: McpManager | undefined,
  segment: Record<string, unknown>,
  ctx: ResolveContext,
  maxBytesOption?: number,
): Promise<Resolution> {
  const target = resourceTarget(segment);
  if (typeof target === 'string') return { type: 'unresolved', reason: target };
  const ref = `${target.server}:${target.uri}`;
  const conn = manager?.servers.get(target.server);
  if (!conn) {
    const known = manager ? [...manager.servers.keys()].join(', ') : '';
    return {
      type: 'unresolved',
      reason: `no MCP server "${target.server}" is configured${known ? ` (configured: ${known})` : ''}`,
      ref,
    };
  }
  let result;
  try {
    result = await conn.readResource(target.uri, ctx.signal);
  } catch (e) {
    return { type: 'unresolved', reason: `reading ${ref} failed: ${describe(e)}`, ref };
  }
  const maxBytes = maxBytesOption ?? DEFAULT_FILE_REF_BYTES;
  const parts = (result.contents ?? [])
    .slice(0, 100)
    .map((c) => (c.uri === target.uri && 'text' in c ? c.text : describeResource(c as Record<string, unknown>)));
  let text = parts.join('\n');
  let warning: string | undefined;
  const bytes = Buffer.from(text);
  if (bytes.length > maxBytes) {
    text = `${bytes.subarray(0, utf8Boundary(bytes, maxBytes)).toString('utf8')}\n[… cut: ${bytes.length - maxBytes} more bytes]`;
    warning = `mcp_resource ${ref} was cut to ${maxBytes} bytes (it has ${bytes.length})`;
  }
  if (text === '') text = '[the resource is empty]';
  return { type: 'context', label: `Resource: ${ref}`, text, ...(warning ? { warning } : {}) };
}

/** `<server>:<uri>` of every listed resource and resource template starting with the prefix. */
export function completeResources(manager: McpManager | undefined, items: string[], ctx: CompleteContext): string[] {
  const out = [...items];
  for (const conn of manager?.servers.values() ?? []) {
    const refs = [
      ...conn.resources.map((r) => `${conn.name}:${r.uri}`),
      ...conn.templates.map((t) => `${conn.name}:${t.uriTemplate}`),
    ];
    for (const ref of refs) {
      if (out.length >= ctx.limit) return out;
      if (ref.startsWith(ctx.prefix) && !out.includes(ref)) out.push(ref);
    }
  }
  return out;
}
