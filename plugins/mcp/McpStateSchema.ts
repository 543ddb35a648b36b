import { z } from 'zod';

/** What one server is doing. */
export const ServerStateSchema = z.enum(['starting', 'ready', 'failed', 'restarting', 'disabled']);
export type ServerState = z.infer<typeof ServerStateSchema>;

export const McpToolInfoSchema = z.object({
  /** The server's name for it. */
  name: z.string(),
  /** The pod tool the model calls (`mcp__<server>__<tool>`); absent when the filter leaves it out. */
  pod_tool: z.string().optional(),
  description: z.string().optional(),
});

export const McpResourceInfoSchema = z.object({ uri: z.string(), name: z.string(), mime_type: z.string().optional() });
export const McpResourceTemplateInfoSchema = z.object({
  uri_template: z.string(),
  name: z.string(),
  mime_type: z.string().optional(),
});
export const McpPromptInfoSchema = z.object({
  name: z.string(),
  description: z.string().optional(),
  arguments: z.array(
    z.object({ name: z.string(), required: z.boolean().optional(), description: z.string().optional() }),
  ),
});

export const McpServerStatusSchema = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'streamable-http', 'sse']),
  state: ServerStateSchema,
  /** The server's own name and version, once it answered. */
  server: z.object({ name: z.string(), version: z.string() }).optional(),
  /** Process id of a stdio server while it runs. */
  pid: z.int().optional(),
  /** Restarts after crashes since the pod started. */
  restarts: z.int(),
  tools: z.array(McpToolInfoSchema),
  resources: z.array(McpResourceInfoSchema),
  resource_templates: z.array(McpResourceTemplateInfoSchema),
  prompts: z.array(McpPromptInfoSchema),
  last_error: z.string().optional(),
});
export type McpServerStatus = z.infer<typeof McpServerStatusSchema>;

/** `<pod runtime dir>/mcp.json`: what `yoi mcp list` prints (may later be a protocol method's reply). */
export const McpStateFileSchema = z.object({
  pod_name: z.string(),
  updated_at_ms: z.int(),
  servers: z.array(McpServerStatusSchema),
});
export type McpStateFile = z.infer<typeof McpStateFileSchema>;
