import fs from 'node:fs';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import { EventBus } from '../bus/EventBus.js';
import { Compactor } from '../compaction/Compactor.js';
import { compactionNotes } from '../compaction/compactionNotes.js';
import { PodController, type Reply } from '../controller/PodController.js';
import { YoiError } from '../errors/YoiError.js';
import type { PodInfo } from '../hooks/HookTypes.js';
import type { PodServices } from '../hooks/PodServices.js';
import type { PluginHost } from '../plugin/PluginHost.js';
import type { Provider } from '../provider/Provider.js';
import { POD_EVENT_KINDS, PROTOCOL_VERSION, SEGMENT_FIELDS, SEGMENT_SIGILS, type AlertLevel, type AlertSource, type Greeting, type Method, type PodStatus } from '../protocol/index.js';
import { PodTree } from '../podtree/PodTree.js';
import type { Scope } from '../scope/Scope.js';
import type { Connection } from '../server/Connection.js';
import { FileActivity } from '../tools/FileActivity.js';
import { SocketServer } from '../server/SocketServer.js';
import type { SessionLog } from '../session/SessionLog.js';
import { loadTokenizer } from '../tokens/estimateTokens.js';
import { createProvider, createTools } from './createRuntimeParts.js';
import { defaultSystemPrompt } from './defaultSystemPrompt.js';
import { openSession } from './openSession.js';
import { handleClientMethod } from './handleClientMethod.js';
import { AtomicFileWriter, ensurePrivateDir, isSocketLive, removeDirExcept, writeFileAtomic, type PodStatusFile } from './podFiles.js';
import { checkSocketPath, podPaths, validatePodName, type PodPaths } from './runtimePaths.js';

export interface StartPodOptions {
  config: ResolvedConfig;
  /** Host with the config's plugins applied, not started (see createHostFromConfig). */
  host: PluginHost;
  /** Pod name; default `config.name`. */
  name?: string;
  socketPath?: string;
  /** Restore the newest session (`true`) or the given session id. */
  resume?: string | true;
  env?: NodeJS.ProcessEnv;
  /**
   * Started by a parent pod's SpawnPod (`--adopt --callback SOCK`): the scope is the one reserved
   * in scope.lock by the pod at `callback` (the config's scope is not used), and `instruction`
   * is added to the system prompt.
   */
  adopt?: { callback: string; instruction?: string };
}

/**
 * One running pod: the socket server, the event bus, the controller and the session log,
 * assembled from a resolved config and its plugin host. `Pod.start` returns once the socket
 * accepts connections; `stop()` shuts down cleanly (the active run gets its terminal event,
 * clients get `shutdown`, the log is flushed, the runtime directory is removed).
 */
export class Pod {
  readonly bus = new EventBus();
  readonly closed: Promise<void>;
  /** Startup notes for the operator (resumed session, repaired log, default model). */
  readonly notes: string[] = [];
  private resolveClosed!: () => void;
  private stopping?: Promise<void>;
  private server!: SocketServer;
  controller!: PodController;
  compactor!: Compactor;
  session!: SessionLog;
  provider!: Provider;
  info!: PodInfo;
  greeting!: Greeting;
  scope!: Scope;
  tree?: PodTree;

  private constructor(
    readonly name: string,
    readonly paths: PodPaths,
    readonly config: ResolvedConfig,
    readonly host: PluginHost,
  ) {
    this.closed = new Promise((r) => (this.resolveClosed = r));
  }

  static async start(opts: StartPodOptions): Promise<Pod> {
    const env = opts.env ?? process.env;
    const name = opts.name ?? opts.config.name;
    const bad = validatePodName(name);
    if (bad) throw new YoiError('YOI_ERR_POD_NAME', bad);
    const paths = podPaths(name, env, opts.socketPath);
    const tooLong = checkSocketPath(paths.socket);
    if (tooLong) throw new YoiError('YOI_ERR_SOCKET_PATH', tooLong);
    const pod = new Pod(name, paths, opts.config, opts.host);
    const fresh = !fs.existsSync(paths.dir);
    try {
      await pod.boot(opts, env);
    } catch (e) {
      // A start that failed before listening leaves nothing behind (a live pod's dir is not ours).
      await pod.tree?.close();
      if (fresh && !pod.listening) fs.rmSync(paths.dir, { recursive: true, force: true });
      throw e;
    }
    return pod;
  }

  get sessionId(): string {
    return this.session.sessionId;
  }

  get status(): PodStatus {
    return this.controller.status;
  }

  /** Broadcasts an alert to every client (and the replay buffer). */
  alert(level: AlertLevel, message: string, source: AlertSource = 'pod'): void {
    this.bus.broadcast({ event: 'alert', data: { level, source, message, timestamp_ms: Date.now() } });
  }

  private async boot(opts: StartPodOptions, env: NodeJS.ProcessEnv): Promise<void> {
    const { config, host } = this;
    ensurePrivateDir(this.paths.base);
    ensurePrivateDir(this.paths.dir);
    if (fs.existsSync(this.paths.socket)) {
      if (await isSocketLive(this.paths.socket)) {
        throw new YoiError('YOI_ERR_POD_RUNNING', `pod ${this.name} is already running (socket ${this.paths.socket})`);
      }
      fs.rmSync(this.paths.socket, { force: true }); // stale: nobody listens
    }

    this.tree = await PodTree.open({ name: this.name, paths: this.paths, env, projectDir: config.projectDir, configScope: config.scope, adopt: opts.adopt });
    this.scope = this.tree.scope;
    this.notes.push(...this.tree.notes);
    const services: PodServices = {
      alert: (level, message) => this.alert(level, message), scope: this.scope, config, files: new FileActivity(), podTree: this.tree,
    };
    this.info = { podName: this.name, cwd: config.cwd, projectDir: config.projectDir, services };
    host.onTapError = (error) => this.alert('warn', error.message);

    this.provider = createProvider(host, config, env, this.name);
    const tools = createTools(host, this.info);
    const scopeSummary = this.scope.summary();
    const opened = openSession({
      dir: config.sessions.dir, resume: opts.resume, podName: this.name, cwd: config.cwd,
      provider: this.provider.name, model: this.provider.model,
      systemPrompt: [config.systemPrompt ?? defaultSystemPrompt({ cwd: config.cwd, scopeSummary }), opts.adopt?.instruction].filter(Boolean).join('\n\n'),
    });
    this.session = opened.log;
    this.bus.beforeDeliver = () => this.session.flush();
    this.notes.push(...opened.notes);
    if (config.modelIsDefault) this.notes.unshift('no model configured: using the offline echo provider');
    this.notes.push(...compactionNotes(config.compaction));
    this.greeting = {
      pod_name: this.name, cwd: config.cwd, provider: this.provider.name, model: this.provider.model,
      scope_summary: scopeSummary, tools: [...tools.keys()],
    };

    // Exact token counts matter for compaction thresholds; its tables cost ~60 MB, so a pod that
    // never compacts automatically does not load them up front (see PodController for usage).
    if (config.compaction.threshold !== undefined || config.compaction.requestThreshold !== undefined) {
      void loadTokenizer().catch(() => undefined); // in the background: awaited before the first request
    }
    const start = { pod_name: this.name, cwd: config.cwd, provider: this.provider.name, model: this.provider.model, system_prompt: opened.systemPrompt };
    this.compactor = new Compactor({
      hooks: host.hooks, bus: this.bus, provider: this.provider, info: this.info, settings: config.compaction,
      sessionsDir: config.sessions.dir, controller: () => this.controller, startFields: () => start,
      session: { get: () => this.session, set: (log) => {
        this.session.flush(); // the old log gets its last entries before the switch
        this.session = log;
      } },
      alert: (level, message) => this.alert(level, message, 'compactor'),
    });
    this.controller = new PodController({
      hooks: host.hooks, bus: this.bus, provider: this.provider, tools, pod: this.info,
      session: () => this.session, history: opened.history, nextTurn: opened.nextTurn,
      systemPrompt: opened.systemPrompt, maxTurns: config.maxTurns, toolOutputBytes: config.limits.toolOutputBytes,
      onStatus: (status) => this.onStatus(status),
      alert: (message) => this.alert('warn', message),
      resolveContext: (index, signal) => ({ ...this.info, index, signal }),
      beforeRequest: (signal) => this.compactor.beforeRequest(signal),
      afterIdle: () => this.compactor.afterIdle(),
      onUsage: (usage, length) => this.compactor.onUsage(usage, length),
      interruptIdleWork: (kind) => this.compactor.interrupt(kind),
    });

    host.start();
    this.server = new SocketServer({
      socketPath: this.paths.socket, bus: this.bus,
      maxLineBytes: config.limits.maxLineBytes, queueLimitBytes: config.limits.clientQueueBytes,
      inputBufferBytes: config.limits.inputBufferBytes,
      onMethod: (conn, method) => this.onMethod(conn, method),
    });
    await this.server.listen();
    this.listening = true;
    fs.writeFileSync(this.paths.pid, `${process.pid}\n`, { mode: 0o600 });
    this.writeStatus();
    try {
      await host.hooks.podStart.promise(this.info);
    } catch (e) {
      await this.stop();
      throw e;
    }
  }

  private onMethod(conn: Connection, method: Method): void | Promise<void> {
    if (method.method === 'shutdown') {
      if (conn.version === 2) this.bus.reply(conn, { event: 'ack', data: { method: 'shutdown' }, ...rid(method) });
      void this.stop();
      return;
    }
    return handleClientMethod(this, conn, method);
  }

  private onStatus(status: PodStatus): void {
    this.writeStatus();
    this.bus.broadcast({ event: 'status', data: { status, session_id: this.sessionId } });
    this.compactor.statusChanged(status);
  }

  /**
   * Rewrites status.json (atomically); also called when the session id changes. The first write
   * is synchronous (the file exists once the pod listens), later ones are asynchronous and
   * coalesced: a transition never waits on the disk.
   */
  writeStatus(): void {
    const file: PodStatusFile = {
      pod_name: this.name, state: this.controller.status, session_id: this.sessionId, pid: process.pid,
      socket: this.paths.socket, started_at: this.startedAt,
    };
    const text = `${JSON.stringify(file, null, 2)}\n`;
    if (this.statusWriter) {
      this.statusWriter.write(text);
      return;
    }
    writeFileAtomic(this.paths.status, text);
    this.statusWriter = new AtomicFileWriter(this.paths.status);
  }

  private statusWriter?: AtomicFileWriter;
  private listening = false;

  private readonly startedAt = Date.now();

  /** The v2 `welcome` for a connection that sent `hello`. */
  welcome() {
    return {
      protocol_version: PROTOCOL_VERSION, pod_name: this.name, session_id: this.sessionId, status: this.status,
      segment_kinds: this.host.keysOf('resolveSegment'), pod_event_kinds: [...POD_EVENT_KINDS],
      segments: this.host.keysOf('resolveSegment').map((kind) => {
        const sigil = (SEGMENT_SIGILS as Record<string, string>)[kind];
        const field = (SEGMENT_FIELDS as Record<string, string>)[kind];
        return { kind, ...(sigil ? { sigil } : {}), ...(field ? { field } : {}) };
      }),
    };
  }

  /** The v2 `compact` method (see Compactor.requestManual); answered like a controller method. */
  compact(_reason: 'manual' = 'manual'): Reply {
    if (this.stopping) return { ok: false, code: 'internal', message: 'Pod is shutting down' };
    return this.compactor.requestManual();
  }

  /** Clean shutdown; safe to call more than once. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    let keep = false;
    try {
      this.compactor?.abort('the pod is stopping');
      await this.controller?.shutdown();
      await this.host.hooks.podStop.promise(this.info).catch(() => undefined);
      this.bus.broadcast({ event: 'shutdown' });
      this.session?.close();
      await this.server?.close();
      keep = (await this.tree?.close())?.keepRegistry ?? false;
      await this.provider?.close?.().catch(() => undefined);
      await this.statusWriter?.drain();
    } finally {
      // The pods this one manages outlive it: their registry waits for its next start.
      removeDirExcept(this.paths.dir, keep ? this.paths.spawnedPods : undefined);
      if (this.paths.socket !== `${this.paths.dir}/sock`) fs.rmSync(this.paths.socket, { force: true });
      this.resolveClosed();
    }
  }
}

/** `{request_id}` of a method, to spread into its replies. */
export function rid(method: Method): { request_id?: string } {
  return method.request_id !== undefined ? { request_id: method.request_id } : {};
}
