import type { McpConfig } from './McpConfigSchema.js';
import { McpServerConnection } from './McpServerConnection.js';
import type { McpServerStatus, McpStateFile } from './McpStateSchema.js';
import { allPodToolNames, fitDefinitions, makePodTool, MAX_DEFINITION_CHARS, toolAllowed } from './podTools.js';
import type { Tool as PodTool } from '../../core/api.js';

export interface ManagerContext {
  podName: string;
  projectDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  alert(message: string): void;
}

/**
 * Every MCP server of one pod. `start()` connects them all concurrently and returns at once (the
 * pod's `listening` never waits for a server); `podTools()` is the current tool set of the ready
 * servers; `describe()` is what `yoi mcp list` shows; `close()` ends every server.
 */
export class McpManager {
  readonly servers = new Map<string, McpServerConnection>();
  private readonly listeners = new Set<() => void>();
  private tools: PodTool[] = [];
  private toolsKey = '';
  /** Servers that were not ready when the model was last offered tools: told about when they become ready. */
  private missed = new Set<string>();

  constructor(
    config: McpConfig,
    private readonly ctx: ManagerContext,
  ) {
    for (const [name, server] of Object.entries(config.servers)) {
      const conn: McpServerConnection = new McpServerConnection(name, server, {
        projectDir: ctx.projectDir,
        cwd: ctx.cwd,
        env: ctx.env,
        alert: (message) => ctx.alert(message),
        changed: () => this.changed(conn),
      });
      this.servers.set(name, conn);
    }
  }

  /** Starts every enabled server; resolves when each is ready or failed (callers need not wait). */
  start(): Promise<void> {
    return Promise.all([...this.servers.values()].map((s) => s.start())).then(() => undefined);
  }

  /** Calls `listener` on every state or list change of any server. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The pod tools of every ready server, filtered by its `tools: {allow, deny}`; rebuilt only when
   * a server's state or tool list changed. Called before each LLM request.
   */
  podTools(): PodTool[] {
    const ready = [...this.servers.values()].filter((s) => s.state === 'ready');
    for (const s of this.servers.values())
      if (s.state === 'starting' || s.state === 'restarting') this.missed.add(s.name);
    // Names depend on every server's tools (see allPodToolNames), ready or not.
    const key = [...this.servers.values()].map((s) => `${s.name}:${s.state === 'ready'}:${s.toolsVersion}`).join(',');
    if (key !== this.toolsKey) {
      this.toolsKey = key;
      const names = allPodToolNames([...this.servers.values()]);
      const offered = ready.flatMap((s) =>
        s.tools
          .filter((t) => toolAllowed(s.config, t.name))
          .map((t) => makePodTool(s, t, names.get(s.name)!.get(t.name))),
      );
      const { kept, dropped } = fitDefinitions(offered);
      this.tools = kept;
      const note =
        dropped.length === 0
          ? ''
          : `MCP tools over the pod's budget for tool definitions (${MAX_DEFINITION_CHARS / 1024} KiB of names, descriptions and schemas): ${dropped.length} not offered (${dropped
              .slice(0, 3)
              .map((t) => t.name)
              .join(', ')}${dropped.length > 3 ? ', …' : ''}); narrow them with the servers' tools.allow / tools.deny`;
      if (note !== '' && note !== this.budgetNote) this.ctx.alert(note);
      this.budgetNote = note;
    }
    return this.tools;
  }

  /** The last budget alert, said once until what is left out changes. */
  private budgetNote = '';

  /** The live state of every server, as written to `mcp.json`. */
  describe(): McpStateFile {
    const names = allPodToolNames([...this.servers.values()]);
    return {
      pod_name: this.ctx.podName,
      updated_at_ms: Date.now(),
      servers: [...this.servers.values()].map((s) => describeServer(s, names.get(s.name)!)),
    };
  }

  /** Closes every server concurrently; no process of theirs is left running. */
  async close(): Promise<void> {
    await Promise.all([...this.servers.values()].map((s) => s.close()));
  }

  private changed(conn: McpServerConnection): void {
    // A restarted server says so itself; this is for a first start that came late.
    if (conn.state === 'ready' && this.missed.delete(conn.name) && conn.restarts === 0) {
      this.ctx.alert(
        `MCP server ${conn.name} is ready now (${conn.tools.length} tools): its tools are offered from the next LLM request`,
      );
    }
    for (const listener of this.listeners) listener();
  }
}

function describeServer(s: McpServerConnection, names: Map<string, string>): McpServerStatus {
  return {
    name: s.name,
    transport: s.transport,
    state: s.state,
    ...(s.serverInfo ? { server: { name: s.serverInfo.name, version: s.serverInfo.version } } : {}),
    ...(s.pid !== undefined ? { pid: s.pid } : {}),
    restarts: s.restarts,
    tools: s.tools.map((t) => ({
      name: t.name,
      ...(toolAllowed(s.config, t.name) ? { pod_tool: names.get(t.name) } : {}),
      ...(t.description ? { description: firstLine(t.description) } : {}),
    })),
    resources: s.resources.map((r) => ({ uri: r.uri, name: r.name, ...(r.mimeType ? { mime_type: r.mimeType } : {}) })),
    resource_templates: s.templates.map((t) => ({
      uri_template: t.uriTemplate,
      name: t.name,
      ...(t.mimeType ? { mime_type: t.mimeType } : {}),
    })),
    prompts: s.prompts.map((p) => ({
      name: p.name,
      ...(p.description ? { description: firstLine(p.description) } : {}),
      arguments: (p.arguments ?? []).map((a) => ({
        name: a.name,
        ...(a.required !== undefined ? { required: a.required } : {}),
        ...(a.description ? { description: a.description } : {}),
      })),
    })),
    ...(s.lastError ? { last_error: s.lastError } : {}),
  };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0];
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
