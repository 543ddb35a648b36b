import { z } from 'zod';

/** Server names become part of tool names (`mcp__<server>__<tool>`) and of `<server>:<uri>` refs. */
export const ServerName = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/,
    'a server name is letters, digits, "_" or "-" (at most 32, starting with a letter or digit)',
  )
  .refine((name) => !name.includes('__'), 'a server name must not contain "__" (it separates the parts of tool names)');

/** Which of a server's tools the pod offers, by the server's own tool names (`*` matches any run of characters). */
const ToolFilterSchema = z.strictObject({
  /** Only these (default: all). */
  allow: z.array(z.string().min(1)).optional(),
  /** Never these (wins over `allow`). */
  deny: z.array(z.string().min(1)).optional(),
});

const CommonFields = {
  /** `false` keeps the server configured but not started (shown as `disabled`). */
  enabled: z.boolean().optional(),
  /** Longest wait for the server to start, and for an answer to one request (reset by progress). Default 60 s. */
  timeoutMs: z.int().min(1).max(3_600_000).optional(),
  tools: ToolFilterSchema.optional(),
};

/** A server run as a child process, spoken to over its stdin/stdout. */
export const StdioServerSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  /** Added to the few variables the SDK passes on (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env: z.record(z.string(), z.string()).optional(),
  /** Working directory, relative to the project directory. Default: the pod's cwd. */
  cwd: z.string().min(1).optional(),
  ...CommonFields,
});

/** A server at a URL: streamable HTTP, falling back to the older HTTP+SSE transport. */
export const HttpServerSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/ }),
  headers: z.record(z.string(), z.string()).optional(),
  /** Headers whose value is read from an environment variable at connect time: `{ Authorization: 'MY_TOKEN' }`. */
  headersEnv: z
    .record(z.string(), z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name'))
    .optional(),
  ...CommonFields,
});

export const McpServerConfigSchema = z.union([StdioServerSchema, HttpServerSchema]);
export type McpServerConfig = z.output<typeof McpServerConfigSchema>;
export type StdioServerConfig = z.output<typeof StdioServerSchema>;
export type HttpServerConfig = z.output<typeof HttpServerSchema>;

/**
 * `mcp: { servers: { <name>: ... } }` — the config section, and today the `mcp()` plugin's options
 * (until plugins own config sections).
 */
export const McpConfigSchema = z
  .strictObject({
    servers: z.record(ServerName, McpServerConfigSchema).default({}),
  })
  .prefault({});
export type McpConfig = z.output<typeof McpConfigSchema>;

export function isStdio(config: McpServerConfig): config is StdioServerConfig {
  return 'command' in config;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
