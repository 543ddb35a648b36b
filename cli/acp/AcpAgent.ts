import fs from 'node:fs';
import path from 'node:path';
import {
  PROTOCOL_VERSION,
  RequestError,
  type AgentContext,
  type InitializeRequest,
  type InitializeResponse,
  type LoadSessionRequest,
  type NewSessionRequest,
  type NewSessionResponse,
  type PromptRequest,
  type PromptResponse,
} from '@agentclientprotocol/sdk';
import type { ResolvedConfig } from '../../core/config/resolveConfig.js';
import { AcpSession } from './AcpSession.js';
import { agentText } from './EventTranslator.js';
import { findSession } from './findSession.js';
import { historyUpdates } from './historyUpdates.js';
import { mapMcpServers } from './mcpServers.js';
import { openPod, type OpenedPod } from './openPod.js';
import { podNameFor } from './podNameFor.js';

export interface AcpAgentOptions {
  readonly version: string;
  readonly log: (line: string) => void;
}

/**
 * yoi as an ACP agent: each ACP session is a pod — the project's, started detached when none
 * runs (it outlives the editor, like `yoi pod start --detach`) — and the session id is the pod's
 * session id, so `session/load` finds it again in the project's session logs.
 */
export class AcpAgent {
  private readonly sessions = new Map<string, AcpSession>();
  /** One opening per pod at a time: two sessions for one project share the pod, never race to start it. */
  private readonly opening = new Map<string, Promise<unknown>>();
  private acp!: AgentContext;

  constructor(private readonly opts: AcpAgentOptions) {}

  connected(acp: AgentContext): void {
    this.acp = acp;
  }

  async initialize(params: InitializeRequest): Promise<InitializeResponse> {
    const { image, mcp } = await this.projectAbilities(process.cwd());
    this.opts.log(
      `editor ${params.clientInfo?.name ?? 'unknown'} speaks ACP version ${params.protocolVersion}; answering with version ${PROTOCOL_VERSION}`,
    );
    return {
      // One version exists: a client asking for another gets ours, and decides whether to go on.
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { image, audio: false, embeddedContext: true },
        mcpCapabilities: { http: mcp, sse: mcp },
      },
      authMethods: [],
      agentInfo: { name: 'yoi', title: 'yoi', version: this.opts.version },
    };
  }

  async newSession(params: NewSessionRequest): Promise<NewSessionResponse> {
    const cwd = checkCwd(params.cwd);
    const config = await loadConfig(cwd);
    const podName = podNameFor(config.name, cwd);
    const mcp = mapMcpServers(params.mcpServers ?? []);
    const opened = await this.serial(podName, () =>
      openPod({ podName, cwd, mcpServers: mcp.servers, clientName: this.clientName() }),
    );
    const sessionId = opened.client.welcome?.session_id ?? '';
    const existing = this.sessions.get(sessionId);
    if (existing) {
      opened.release();
      await opened.client.close();
      return { sessionId, _meta: { yoi: { pod: podName } } };
    }
    const session = this.track(sessionId, podName, cwd, opened);
    const notes = [
      ...mcp.skipped,
      ...this.mcpNotes(config, podName, Object.keys(mcp.servers).length, opened.started),
      ...opened.startAlerts,
    ];
    setImmediate(() => {
      for (const note of notes) session.say(`> ${note}\n\n`);
      session.refreshCommands();
    });
    this.opts.log(
      `session ${sessionId}: pod ${podName} (${opened.started ? 'started' : 'already running'}) for ${cwd}`,
    );
    return { sessionId, _meta: { yoi: { pod: podName } } };
  }

  async loadSession(params: LoadSessionRequest): Promise<Record<string, never>> {
    const cwd = checkCwd(params.cwd);
    const config = await loadConfig(cwd);
    const found = findSession(config.sessions.dir, params.sessionId);
    await this.sessions.get(params.sessionId)?.close();
    this.sessions.delete(params.sessionId);
    const mcp = mapMcpServers(params.mcpServers ?? []);
    const opened = await this.serial(found.podName, () =>
      openPod({
        podName: found.podName,
        cwd,
        resume: found.current,
        mcpServers: mcp.servers,
        clientName: this.clientName(),
      }),
    );
    const live = opened.client.welcome?.session_id;
    if (live !== found.current) {
      opened.release();
      await opened.client.close();
      throw new RequestError(
        -32603,
        `yoi: pod ${found.podName} is running session ${live}; stop it (yoi pod stop --pod ${found.podName}) to load session ${params.sessionId}`,
      );
    }
    const session = this.track(params.sessionId, found.podName, cwd, opened);
    session.podSessionId = found.current;
    await session.replay([
      ...historyUpdates(opened.history.items, cwd),
      ...[...mcp.skipped, ...opened.startAlerts].map((note) => agentText(`> ${note}\n\n`)),
    ]);
    setImmediate(() => session.refreshCommands());
    this.opts.log(
      `session ${params.sessionId}: loaded in pod ${found.podName} (${opened.started ? 'started' : 'already running'})`,
    );
    return {};
  }

  async prompt(params: PromptRequest): Promise<PromptResponse> {
    return { stopReason: await this.session(params.sessionId).prompt(params.prompt) };
  }

  cancel(sessionId: string): void {
    this.sessions.get(sessionId)?.cancel();
  }

  /** The editor went away: the pods stay, their connections close. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => s.close().catch(() => undefined)));
    this.sessions.clear();
  }

  private track(sessionId: string, podName: string, cwd: string, opened: OpenedPod): AcpSession {
    const session = new AcpSession(
      sessionId,
      podName,
      cwd,
      opened.client,
      {
        acp: this.acp,
        log: (line) => this.opts.log(`session ${sessionId}: ${line}`),
        reopen: (podSession) =>
          this.serial(podName, () => openPod({ podName, cwd, resume: podSession, clientName: this.clientName() })),
      },
      opened.release(),
    );
    this.sessions.set(sessionId, session);
    return session;
  }

  private session(id: string): AcpSession {
    const s = this.sessions.get(id);
    if (!s)
      throw RequestError.invalidParams(
        { sessionId: id },
        `unknown session ${id}: create it with session/new or session/load`,
      );
    return s;
  }

  private async serial<T>(podName: string, fn: () => Promise<T>): Promise<T> {
    const before = this.opening.get(podName) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(fn);
    this.opening.set(podName, mine);
    try {
      return await mine;
    } finally {
      if (this.opening.get(podName) === mine) this.opening.delete(podName);
    }
  }

  private mcpNotes(config: ResolvedConfig, podName: string, count: number, started: boolean): string[] {
    if (count === 0) return [];
    if (!config.plugins.some((p) => p.name === 'yoi:mcp'))
      return [
        `yoi: the project's plugins include no MCP plugin (yoi:mcp): the editor's ${count} MCP server(s) are not used`,
      ];
    if (!started)
      return [
        `yoi: pod ${podName} was already running: the editor's ${count} MCP server(s) are not added to it (yoi pod stop --pod ${podName}, then open a new session, to start it with them)`,
      ];
    return [];
  }

  private clientName(): string {
    return `yoi-acp/${this.opts.version}`;
  }

  /** What the project at `cwd` can take: images (a plugin resolves `image` segments), MCP servers (yoi:mcp). */
  private async projectAbilities(cwd: string): Promise<{ image: boolean; mcp: boolean }> {
    try {
      const { loadProject } = await import('../loadProject.js');
      const { config, host } = await loadProject({ cwd, checkProvider: false });
      return {
        image: (host.hooks.resolveSegment.get('image')?.taps.length ?? 0) > 0,
        mcp: config.plugins.some((p) => p.name === 'yoi:mcp'),
      };
    } catch (e) {
      this.opts.log(`no project config read from ${cwd}: ${(e as Error).message}`);
      return { image: false, mcp: false };
    }
  }
}

function checkCwd(cwd: string): string {
  if (!path.isAbsolute(cwd))
    throw RequestError.invalidParams({ cwd }, `cwd must be an absolute path, got ${JSON.stringify(cwd)}`);
  let st: fs.Stats;
  try {
    st = fs.statSync(cwd);
  } catch {
    throw RequestError.invalidParams({ cwd }, `cwd ${cwd} does not exist`);
  }
  if (!st.isDirectory()) throw RequestError.invalidParams({ cwd }, `cwd ${cwd} is not a directory`);
  return path.resolve(cwd);
}

async function loadConfig(cwd: string): Promise<ResolvedConfig> {
  const { loadProject } = await import('../loadProject.js');
  try {
    return (await loadProject({ cwd, checkProvider: false })).config;
  } catch (e) {
    throw new RequestError(-32603, `yoi: ${(e as Error).message}`);
  }
}
