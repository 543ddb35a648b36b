import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type {
  CallToolResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { connectClient, type Connected } from './connectClient.js';
import type { Sdk } from './loadSdk.js';
import { oneLine as describe } from './oneLine.js';
import { DEFAULT_TIMEOUT_MS, isStdio, type McpServerConfig } from './McpConfigSchema.js';
import type { ServerState } from './McpStateSchema.js';
import type { Listed } from './listAll.js';
import { ListCuts } from './ListCuts.js';
import { listServer } from './listServer.js';
import { ListRefresh, REFRESH_WAIT_MS } from './ListRefresh.js';
import { UNREAD_ERROR } from './boundUnreadSends.js';
import { MAX_NOTIFICATIONS_PER_SECOND, NOTIFICATION_FLOOD_ERROR } from './boundNotificationRate.js';
import { descendantsOf, killSurvivors, processId, sessionOf, type ProcessId } from './processTree.js';

export interface ServerContext {
  projectDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Something a user should know (a failure, a crash, a late start); one line. */
  alert(message: string): void;
  /** State or lists changed. */
  changed(): void;
}

/** Restarts after crashes in a row before the server is given up (`failed`). */
export const MAX_RESTARTS = 5;
const BACKOFF_MS = [500, 1000, 2000, 4000, 8000];
/** A server that stayed up this long has recovered: its crash count starts again. */
const RECOVERED_AFTER_MS = 60_000;

/** Thrown for a request to a server that is not ready. */
export class ServerUnavailableError extends Error {}

/**
 * One configured MCP server: its connection (through the SDK's client), its state
 * (starting/ready/failed/restarting/disabled), its tools, resources, resource templates and prompts
 * (kept current on `list_changed`), and its last error. A crashed stdio server is restarted with
 * backoff, at most MAX_RESTARTS times in a row. `close()` ends the server and every process it
 * started.
 */
export class McpServerConnection {
  state: ServerState;
  tools: Tool[] = [];
  resources: Resource[] = [];
  templates: ResourceTemplate[] = [];
  prompts: Prompt[] = [];
  lastError?: string;
  restarts = 0;
  serverInfo?: { name: string; version: string };
  transport: 'stdio' | 'streamable-http' | 'sse';
  /** Bumped by every tool list change: lets the manager rebuild pod tools only when needed. */
  toolsVersion = 0;

  private connected?: Connected;
  private process?: ProcessId;
  private generation = 0;
  private closing = false;
  private crashesInARow = 0;
  private readySince = 0;
  private restartTimer?: NodeJS.Timeout;
  private reportedProtocolError = false;
  /** Why the SDK closed the connection itself, for the alert of that close. */
  private closedBecause?: string;
  /** Clients of connection attempts under way (closed by `close()`). */
  private readonly connecting = new Set<Client>();
  /** Each connection's refreshes after `list_changed` (tools, resources, prompts). */
  private readonly refreshes = new WeakMap<Client, ListRefresh[]>();
  private readonly cuts = new ListCuts();

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly ctx: ServerContext,
  ) {
    this.state = config.enabled === false ? 'disabled' : 'starting';
    this.transport = isStdio(config) ? 'stdio' : 'streamable-http';
  }

  get timeoutMs(): number {
    return this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get pid(): number | undefined {
    return this.connected?.pid;
  }

  /** Starts connecting (not awaited by anyone: a slow server becomes ready later). */
  start(): Promise<void> {
    if (this.state === 'disabled') return Promise.resolve();
    return this.connect(false);
  }

  /**
   * Calls a tool. A `list_changed` the server sent before its answer is applied before this
   * returns (the server sends it first), so the next LLM request sees the new lists; waited for
   * REFRESH_WAIT_MS at most.
   */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    onprogress?: (p: { progress: number; total?: number; message?: string }) => void,
  ): Promise<CallToolResult> {
    const client = this.readyClient();
    const result = await client.callTool({ name, arguments: args }, undefined, {
      signal,
      timeout: this.timeoutMs,
      resetTimeoutOnProgress: true,
      ...(onprogress ? { onprogress } : {}),
    });
    // Only the listings due now, for a short while: a server announcing changes without end
    // kept every result waiting for its whole timeout.
    const refreshes = this.refreshes.get(client)?.filter((r) => !r.idle);
    if (refreshes?.length) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(refreshes.map((r) => r.settled())),
        new Promise((r) => (timer = setTimeout(r, Math.min(REFRESH_WAIT_MS, this.timeoutMs)))),
      ]);
      clearTimeout(timer);
    }
    return result as CallToolResult;
  }

  readResource(uri: string, signal: AbortSignal): Promise<ReadResourceResult> {
    return this.readyClient().readResource({ uri }, { signal, timeout: this.timeoutMs });
  }

  getPrompt(name: string, args: Record<string, string>, signal: AbortSignal): Promise<GetPromptResult> {
    return this.readyClient().getPrompt({ name, arguments: args }, { signal, timeout: this.timeoutMs });
  }

  /** The connection being made, settled (never rejects). */
  private attempt: Promise<unknown> | undefined;

  /** Closes the connection and ends the server's processes; no restart follows. */
  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.restartTimer);
    // A server still starting is ended too (its client closes the transport and the process).
    await Promise.all([...this.connecting].map((client) => client.close().catch(() => undefined)));
    // The failed attempt ends what the server started (see connectClient): wait for that.
    await this.attempt;
    await this.disconnect();
  }

  private readyClient(): Client {
    if (this.state !== 'ready' || !this.connected) {
      const why = this.lastError ? `: ${this.lastError}` : '';
      throw new ServerUnavailableError(
        `MCP server ${this.name} is ${this.state}${this.state === 'failed' || this.state === 'restarting' ? why : ''}`,
      );
    }
    return this.connected.client;
  }

  private async connect(restart: boolean): Promise<void> {
    const generation = ++this.generation;
    this.state = restart ? 'restarting' : 'starting';
    this.ctx.changed();
    let connected: Connected;
    try {
      const attempt = connectClient(this.config, {
        projectDir: this.ctx.projectDir,
        cwd: this.ctx.cwd,
        env: this.ctx.env,
        timeoutMs: this.timeoutMs,
        prepare: (client, sdk) => this.prepare(client, sdk, generation),
      });
      this.attempt = attempt.catch(() => undefined);
      connected = await attempt;
      this.connecting.clear();
    } catch (e) {
      this.connecting.clear();
      if (this.closing || generation !== this.generation) return;
      this.lastError = this.closedBecause ?? describe(e);
      this.closedBecause = undefined;
      if (restart) return this.crashed(`could not be restarted: ${this.lastError}`);
      this.state = 'failed';
      this.ctx.alert(`MCP server ${this.name} failed to start: ${this.lastError}`);
      this.ctx.changed();
      return;
    }
    if (this.closing || generation !== this.generation) {
      const leader = connected.pid !== undefined ? processId(connected.pid) : undefined;
      await connected.client.close().catch(() => undefined);
      if (leader) killSurvivors([leader, ...sessionOf(leader)]);
      return;
    }
    this.connected = connected;
    this.transport = connected.transport;
    this.process = connected.pid !== undefined ? processId(connected.pid) : undefined;
    this.serverInfo = connected.client.getServerVersion();
    try {
      await this.refreshAll(connected.client);
    } catch (e) {
      // A server that connects but cannot list what it offers is still usable for what it listed.
      this.lastError = `listing failed: ${describe(e)}`;
    }
    // Closed meanwhile (by us, or the server exited while listing: a restart is under way).
    if (this.closing || generation !== this.generation || this.connected !== connected) return;
    this.state = 'ready';
    this.readySince = Date.now();
    if (restart) this.ctx.alert(`MCP server ${this.name} is ready again after a restart (${this.tools.length} tools)`);
    this.ctx.changed();
  }

  /** Handlers installed before connecting: closes, protocol errors, list changes. */
  private prepare(client: Client, sdk: Sdk, generation: number): void {
    this.connecting.add(client);
    const current = () => !this.closing && generation === this.generation && this.connected?.client === client;
    client.onclose = () => {
      if (current()) void this.onUnexpectedClose();
    };
    client.onerror = (error) => {
      if (this.closing || generation !== this.generation) return;
      // Being closed for a bound (below): what the server still sends meanwhile changes nothing,
      // nor do lines cut where the SDK empties its read buffer on closing.
      if (this.closedBecause !== undefined) return;
      // Progress that arrives after its call ended (or names no call) changes nothing: not an
      // alert, nor the server's last error.
      if (/progress notification for an unknown token/.test(describe(error))) return;
      this.lastError = describe(error);
      // The SDK closes a stdio server that sends more than its read buffer holds: the alert of
      // the close that follows says so, not "exited unexpectedly".
      if (/ReadBuffer exceeded maximum size/.test(this.lastError)) {
        this.closedBecause = 'sent a message over 10 MiB (more than the pod reads from an MCP server)';
        return;
      }
      // An HTTP event stream cut at the bound (boundedFetch): the SDK would leave the call it
      // answered waiting for its timeout. Closing the connection ends that call now; the server
      // is connected again as after a crash.
      if (/sent an event over \d+ MiB: dropped/.test(this.lastError) && current()) {
        this.closedBecause = 'sent an event over 10 MiB (more than the pod reads from an MCP server)';
        void client.close().catch(() => undefined);
        return;
      }
      // A stdio server that stopped reading what the pod writes to it (boundUnreadSends): closed,
      // and started again as after a crash, before the writes fill the pod's memory.
      if (UNREAD_ERROR.test(this.lastError) && current()) {
        this.closedBecause = 'stopped reading what the pod sends it (10 MiB or 10,000 messages waiting)';
        void client.close().catch(() => undefined);
        return;
      }
      // A server flooding notifications (boundNotificationRate): closed, and started again as
      // after a crash (given up after MAX_RESTARTS in a row), rather than costing the pod a core;
      // while still connecting too (the attempt then fails, saying so).
      if (NOTIFICATION_FLOOD_ERROR.test(this.lastError)) {
        this.closedBecause = `sent more than ${MAX_NOTIFICATIONS_PER_SECOND.toLocaleString('en')} notifications in a second`;
        void client.close().catch(() => undefined);
        return;
      }
      // While connecting, a failure is reported once, by connect(). After that, one alert per
      // connection: a server writing garbage must not flood every client.
      if (this.state === 'ready' && !this.reportedProtocolError) {
        this.reportedProtocolError = true;
        this.ctx.alert(`MCP server ${this.name}: ${this.lastError}`);
      }
      this.ctx.changed();
    };
    // One listing of a kind at a time, at most one a second (ListRefresh): a server repeating
    // the notification made one request each, then listings back to back without end.
    const refresh = (what: () => Promise<void>) =>
      new ListRefresh(
        () =>
          what().then(
            () => this.ctx.changed(),
            (e: unknown) => {
              this.lastError = `listing failed: ${describe(e)}`;
              this.ctx.changed();
            },
          ),
        current,
      );
    const refreshes = [
      refresh(() => this.refreshTools(client)),
      refresh(() => this.refreshResources(client)),
      refresh(() => this.refreshPrompts(client)),
    ];
    this.refreshes.set(client, refreshes);
    const [tools, resources, prompts] = refreshes;
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => tools.changed());
    client.setNotificationHandler(sdk.ResourceListChangedNotificationSchema, () => resources.changed());
    client.setNotificationHandler(sdk.PromptListChangedNotificationSchema, () => prompts.changed());
  }

  private async refreshAll(client: Client): Promise<void> {
    await Promise.all([this.refreshTools(client), this.refreshResources(client), this.refreshPrompts(client)]);
  }

  private async refreshTools(client: Client): Promise<void> {
    if (!client.getServerCapabilities()?.tools) return;
    this.tools = this.kept('tools', await listServer.tools(client, this.timeoutMs));
    this.toolsVersion++;
  }

  private async refreshResources(client: Client): Promise<void> {
    if (!client.getServerCapabilities()?.resources) return;
    const [resources, templates] = await Promise.all([
      listServer.resources(client, this.timeoutMs),
      listServer.templates(client, this.timeoutMs),
    ]);
    this.resources = this.kept('resources', resources);
    this.templates = this.kept('resource templates', templates);
  }

  private async refreshPrompts(client: Client): Promise<void> {
    if (!client.getServerCapabilities()?.prompts) return;
    this.prompts = this.kept('prompts', await listServer.prompts(client, this.timeoutMs));
  }

  /** A listing's items; a list cut short is the server's last error (and one alert). */
  private kept<K>(list: string, listed: Listed<K>): K[] {
    const { items, note } = this.cuts.kept(list, listed, (n) => this.ctx.alert(`MCP server ${this.name}: ${n}`));
    if (note) this.lastError = note;
    return items;
  }

  /** The connection closed without us closing it: a stdio server exited (or an HTTP session ended). */
  private async onUnexpectedClose(): Promise<void> {
    const why = this.connected?.stderr?.last();
    const because = this.closedBecause;
    this.closedBecause = undefined;
    await this.disconnect();
    this.crashed(because ?? `exited unexpectedly${why ? ` (stderr: ${why})` : ''}`);
  }

  private crashed(reason: string): void {
    if (this.closing) return;
    if (!reason.startsWith('could not')) this.lastError = reason;
    if (this.readySince > 0 && Date.now() - this.readySince > RECOVERED_AFTER_MS) this.crashesInARow = 0;
    this.readySince = 0;
    if (this.crashesInARow >= MAX_RESTARTS) {
      this.state = 'failed';
      this.ctx.alert(`MCP server ${this.name} ${reason}; gave up after ${MAX_RESTARTS} restarts in a row`);
      this.ctx.changed();
      return;
    }
    const delay = BACKOFF_MS[Math.min(this.crashesInARow, BACKOFF_MS.length - 1)];
    this.crashesInARow++;
    this.restarts++;
    this.state = 'restarting';
    this.ctx.alert(
      `MCP server ${this.name} ${reason}; restarting in ${delay} ms (restart ${this.crashesInARow} of at most ${MAX_RESTARTS} in a row)`,
    );
    this.ctx.changed();
    this.restartTimer = setTimeout(() => void this.connect(true), delay);
  }

  /** Closes the SDK client (stdin EOF, then SIGTERM, then SIGKILL), then kills what the server left running. */
  private async disconnect(): Promise<void> {
    const connected = this.connected;
    this.connected = undefined;
    this.reportedProtocolError = false;
    if (!connected) return;
    const server = this.process;
    const tree = server ? [server, ...descendantsOf(server.pid)] : [];
    this.process = undefined;
    await connected.client.close().catch(() => undefined);
    // Its session too: children handed to init when it crashed, or started while it closed.
    killSurvivors(server ? [...tree, ...sessionOf(server)] : tree);
  }
}
