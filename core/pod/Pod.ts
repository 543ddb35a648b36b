import fs from 'node:fs';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import { EventBus } from '../bus/EventBus.js';
import { Compactor } from '../compaction/Compactor.js';
import { compactionNotes } from '../compaction/compactionNotes.js';
import { PodController, type Reply } from '../controller/PodController.js';
import { ReportLedger } from '../controller/ReportLedger.js';
import { YoiError } from '../errors/YoiError.js';
import type { PodInfo } from '../hooks/HookTypes.js';
import type { PluginHost } from '../plugin/PluginHost.js';
import type { Provider } from '../provider/Provider.js';
import { type AlertLevel, type AlertSource, type Greeting, type Method, type PodStatus } from '../protocol/index.js';
import { Scope } from '../scope/Scope.js';
import type { Connection } from '../server/Connection.js';
import { SocketServer } from '../server/SocketServer.js';
import { loadTokenizer } from '../tokens/estimateTokens.js';
import { controlPlanePaths } from './controlPlane.js';
import { createPodServices } from './createPodServices.js';
import { createProvider, createTools } from './createRuntimeParts.js';
import { defaultSystemPrompt } from './defaultSystemPrompt.js';
import { openSession } from './openSession.js';
import { watchSession } from './watchSession.js';
import { welcomeData } from './welcomeData.js';
import { handleClientMethod } from './handleClientMethod.js';
import { handleExtensionMethod } from './handleExtensionMethod.js';
import { PodState } from './PodState.js';
import { WorkTracker, type PodRuntime } from './PodRuntime.js';
import { RuntimeFiles } from './RuntimeFiles.js';
import { clientOf, rid } from './clientOf.js';
import { checkSocketPath, podPaths, validatePodName, type PodPaths } from './runtimePaths.js';

export interface StartPodOptions {
  config: ResolvedConfig;
  /** Host with the config's plugins applied, not started (see createHostFromConfig). */
  host: PluginHost;
  /** Pod name; default `config.name`. */
  name?: string;
  socketPath?: string;
  /** Restore this pod's newest session (`true`) or the given session id. */
  resume?: string | true;
  env?: NodeJS.ProcessEnv;
  /**
   * How the pod is launched, for the plugins that launched it (`{ adopt: {...} }` when SpawnPod
   * started it); handed to every hook as `launch`.
   */
  launch?: Readonly<Record<string, unknown>>;
}

/**
 * One running pod: the socket server, the event bus, the state machine with its run controller
 * and compactor, and the session log, assembled from a resolved config and its plugin host.
 * `Pod.start` returns once the socket accepts connections; `stop()` shuts down cleanly (the
 * active run gets its terminal event, clients get `shutdown`, the log is flushed, the runtime
 * directory is removed).
 */
export class Pod {
  readonly bus = new EventBus();
  readonly state = new PodState();
  readonly closed: Promise<void>;
  /** Startup notes for the operator (resumed session, repaired log, default model). */
  readonly notes: string[] = [];
  private resolveClosed!: () => void;
  private stopping?: Promise<void>;
  private server?: SocketServer;
  private listening = false;
  /** The resumed session's plugin entries (`services.pluginLog.restored`, from `podStart` on). */
  private restoredPlugins: ReadonlyMap<string, readonly unknown[]> = new Map();
  controller!: PodController;
  compactor!: Compactor;
  runtime!: PodRuntime;
  provider!: Provider;
  info!: PodInfo;
  greeting!: Greeting;
  scope!: Scope;
  readonly files: RuntimeFiles;

  private constructor(
    readonly name: string,
    readonly paths: PodPaths,
    readonly config: ResolvedConfig,
    readonly host: PluginHost,
  ) {
    this.closed = new Promise((r) => (this.resolveClosed = r));
    this.files = new RuntimeFiles(
      paths,
      () => this.state.status,
      () => this.runtime?.session.sessionId ?? '',
    );
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
      if (pod.info) await pod.host.hooks.podStop.promise(pod.info).catch(() => undefined);
      if (fresh && !pod.listening) fs.rmSync(paths.dir, { recursive: true, force: true });
      throw e;
    }
    return pod;
  }

  get sessionId(): string {
    return this.runtime.session.sessionId;
  }

  get status(): PodStatus {
    return this.state.status;
  }

  /** Broadcasts an alert to every client (and the replay buffer). */
  alert(level: AlertLevel, message: string, source: AlertSource = 'pod'): void {
    this.bus.broadcast({ event: 'alert', data: { level, source, message, timestamp_ms: Date.now() } });
  }

  private async boot(opts: StartPodOptions, env: NodeJS.ProcessEnv): Promise<void> {
    const { config, host, name } = this;
    await this.files.prepare(name);
    host.start(); // frozen, and every used service is provided
    const launch = Object.freeze({ ...(opts.launch ?? {}) });
    const rules = await host.hooks.resolveScope.promise({
      podName: name,
      runtime: this.files.handle,
      cwd: config.cwd,
      projectDir: config.projectDir,
      launch,
      config,
    });
    this.scope = new Scope(rules ?? config.scope, config.projectDir);
    this.scope.protect(controlPlanePaths({ config, paths: this.paths, env }));
    const services = createPodServices({
      scope: this.scope,
      config,
      runtime: this.files.handle,
      services: host.services,
      alert: (level, message) => this.alert(level, message),
      note: (message) => (this.listening ? this.alert('warn', message) : this.notes.push(message)),
      serveClient: (transport) =>
        this.server && !this.stopping ? this.server.accept(transport) : void transport.destroy(),
      session: () => this.runtime.session,
      restored: (plugin) => this.restoredPlugins.get(plugin) ?? [],
    });
    this.info = { podName: name, cwd: config.cwd, projectDir: config.projectDir, services, launch };
    host.onTapError = (error) => this.alert('warn', error.message);
    await host.hooks.podInit.promise(this.info);

    this.provider = createProvider(host, config, env, name);
    const tools = createTools(host, this.info);
    const scopeSummary = this.scope.summary();
    const prompt = await host.hooks.systemPrompt.promise(
      config.systemPrompt ?? defaultSystemPrompt({ cwd: config.cwd, scopeSummary }),
      this.info,
    );
    const opened = openSession({
      dir: config.sessions.dir,
      resume: opts.resume,
      podName: name,
      cwd: config.cwd,
      provider: this.provider.name,
      model: this.provider.model,
      systemPrompt: prompt,
    });
    this.restoredPlugins = opened.plugins;
    this.bus.beforeDeliver = () => (this.runtime?.session ?? opened.log).flush();
    watchSession(opened, (level, message) => this.alert(level, message), this.notes);
    if (config.modelIsDefault) this.notes.unshift('no model configured: using the offline echo provider');
    this.notes.push(...compactionNotes(config.compaction));
    this.greeting = {
      pod_name: name,
      cwd: config.cwd,
      provider: this.provider.name,
      model: this.provider.model,
      scope_summary: scopeSummary,
      tools: [...tools.keys()],
    };
    // Exact token counts matter for compaction thresholds; its tables cost ~60 MB, so a pod that
    // never compacts automatically does not load them up front (see runTurns for usage).
    if (config.compaction.threshold !== undefined || config.compaction.requestThreshold !== undefined) {
      void loadTokenizer().catch(() => undefined); // in the background: awaited before the first request
    }

    this.state.onChange((status) => this.onStatus(status));
    this.runtime = {
      hooks: host.hooks,
      bus: this.bus,
      provider: this.provider,
      info: this.info,
      config,
      segmentKinds: host.segmentKinds,
      state: this.state,
      history: opened.history,
      systemPrompt: opened.systemPrompt,
      session: opened.log,
      work: new WorkTracker(),
      reports: ReportLedger.restore(opened.reports),
      alert: (level, message, source) => this.alert(level, message, source),
    };
    this.compactor = new Compactor(this.runtime);
    this.controller = new PodController(this.runtime, this.compactor, tools, opened.nextTurn);
    host.protocol.attach({
      broadcast: (event) => this.bus.broadcast(event),
      sendTo: (id, event) => {
        for (const conn of this.bus.clients) if (conn.id === id) this.bus.reply(conn, event);
      },
    });

    this.bus.replyBudgetBytes = config.limits.replyBufferBytes;
    this.server = new SocketServer({
      socketPath: this.paths.socket,
      bus: this.bus,
      maxLineBytes: config.limits.maxLineBytes,
      queueLimitBytes: config.limits.clientQueueBytes,
      inputBufferBytes: config.limits.inputBufferBytes,
      onMethod: (conn, method) => this.onMethod(conn, method),
      onOtherLine: (conn, line) =>
        handleExtensionMethod(host.protocol, this.bus, this.info, conn, line, clientOf(conn)),
      onRequestFailed: (message) => this.alert('error', message),
    });
    await this.server.listen();
    this.listening = true;
    this.files.listening();
    try {
      await host.hooks.podStart.promise(this.info);
    } catch (e) {
      await this.stop();
      throw e;
    }
    this.controller.startQueuedNotes(); // reports a resumed session had applied but not yet shown its model
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
    this.files.statusChanged();
    this.bus.broadcast({ event: 'status', data: { status, session_id: this.sessionId } });
  }

  /** Rewrites status.json (also called when the session id changes). */
  writeStatus(): void {
    this.files.statusChanged();
  }

  /** The v2 `welcome` for a connection that sent `hello`, with what plugins add to it. */
  welcome(conn: Connection) {
    return welcomeData(this.host, this, clientOf(conn));
  }

  /** The v2 `compact` method (see Compactor.requestManual); answered like a controller method. */
  compact(): Reply {
    if (this.stopping) return { ok: false, code: 'internal', message: 'Pod is shutting down' };
    return this.compactor.requestManual();
  }

  /** Clean shutdown; safe to call more than once. */
  stop(): Promise<void> {
    this.stopping ??= this.shutdown();
    return this.stopping;
  }

  private async shutdown(): Promise<void> {
    try {
      this.compactor?.abort('the pod is stopping');
      await this.controller?.shutdown();
      await this.host.hooks.podStop.promise(this.info).catch(() => undefined);
      this.bus.broadcast({ event: 'shutdown' });
      try {
        this.runtime?.session.close();
      } catch (e) {
        this.alert('error', (e as Error).message); // what a full disk kept from the log, said last
      }
      await this.server?.close();
      this.host.protocol.attach(undefined);
      // A plugin's provider whose close throws, even before returning its promise, must not leave
      // the stop rejected: `void stop()` (shutdown, SIGTERM) would end the process with exit 1.
      await Promise.resolve()
        .then(() => this.provider?.close?.())
        .catch(() => undefined);
    } finally {
      await this.files.remove();
      this.resolveClosed();
    }
  }
}
