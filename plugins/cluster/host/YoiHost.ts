import path from 'node:path';
import type { Msg, NatsConnection, Subscription } from '@nats-io/transport-node';
import { placeChild, type HostContext } from './placeChild.js';
import { ReportRelay, type Placement } from './ReportRelay.js';
import { CommandServer } from './serveCommand.js';
import { HostPlacements } from './HostPlacements.js';
import { heartbeatMs, type ClusterConfig } from '../ClusterConfigSchema.js';
import { ClusterRegistry } from '../ClusterRegistry.js';
import { clusterNames } from '../clusterNames.js';
import { closeNats } from '../closeNats.js';
import { withTimeout } from '../withTimeout.js';
import { connectNats, MAX_MESSAGE_BYTES } from '../connectNats.js';
import { SpawnRequestSchema, type CommandReply, type SpawnReply } from '../PlacementSchemas.js';
import { ScopeLockFile } from '../../podtree/tree/ScopeLockFile.js';
import { reclaimStale } from '../../podtree/tree/allocationTable.js';
import { RefusalLog } from '../../ws/RefusalLog.js';
import {
  canonicalPath,
  ensurePrivateDir,
  formatZodError,
  isPidAlive,
  runtimeBase,
  YoiError,
} from '../../../core/api.js';

export interface YoiHostOptions {
  readonly name: string;
  readonly config: ClusterConfig;
  readonly projectDir: string;
  readonly configPath: string | null;
  readonly configDigest?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly log: (line: string) => void;
}

/** Placement requests served one at a time (each starts a process). */
const MAX_WAITING_PLACEMENTS = 16;

/**
 * `yoi host`: this machine's member of the cluster. Announces itself in the `<prefix>hosts`
 * bucket (refreshed every heartbeat, so a dead host expires), serves placement requests on
 * `<prefix>host.<name>.spawn` (NATS request/reply) by starting the child here, and relays the
 * reports of the pods it placed to JetStream. At start it reclaims the scope of pods of this
 * runtime directory whose processes are gone (a host that died left them).
 */
export class YoiHost {
  private nc?: NatsConnection;
  private registry?: ClusterRegistry;
  private relay?: ReportRelay;
  private sub?: Subscription;
  private commandSub?: Subscription;
  private timer?: NodeJS.Timeout;
  private placements: Map<string, Placement> = new Map();
  /** Anyone who can publish on the subject can send placements: their refusals must not flood the log. */
  private readonly refusals: RefusalLog;
  private readonly startedAt = Date.now();
  private readonly names;
  readonly relaySocket: string;
  readonly base: string;

  constructor(private readonly o: YoiHostOptions) {
    this.names = clusterNames(o.config.nats.prefix);
    this.base = runtimeBase(o.env);
    this.relaySocket = path.join(this.base, '.host.sock');
    this.refusals = new RefusalLog(o.log);
  }

  get subject(): string {
    return this.names.spawn(this.o.name);
  }

  async start(): Promise<void> {
    ensurePrivateDir(this.base);
    this.placements = new HostPlacements(this.base);
    const { reclaimed, live } = await ScopeLockFile.inBase(this.base).update((table) => {
      const gone = reclaimStale(table, isPidAlive);
      return { reclaimed: gone, live: new Set(table.allocations.map((a) => a.pod_name)) };
    });
    if (reclaimed.length > 0)
      this.o.log(`reclaimed the scope of ${reclaimed.map((a) => a.pod_name).join(', ')} (their processes are gone)`);
    for (const child of [...this.placements.keys()]) if (!live.has(child)) this.placements.delete(child);
    this.nc = await connectNats(this.o.config.nats, `yoi host ${this.o.name}`);
    try {
      this.registry = await ClusterRegistry.open(this.nc, this.names, this.o.config.ttlMs);
      const existing = await this.registry.getHost(this.o.name);
      if (existing && existing.pid !== process.pid && existing.project_dir !== this.o.projectDir) {
        this.o.log(`host name ${this.o.name} was registered by another process (pid ${existing.pid}); taking it over`);
      }
      await this.heartbeat();
    } catch (e) {
      throw new YoiError('YOI_ERR_CLUSTER', `cannot register host ${this.o.name}: ${(e as Error).message}`);
    }
    this.relay = new ReportRelay(this.relaySocket, this.nc, this.names, this.placements);
    await this.relay.listen();
    this.timer = setInterval(() => void this.heartbeat(), heartbeatMs(this.o.config));
    this.sub = this.nc.subscribe(this.subject);
    this.serve(this.sub).catch((e: Error) => this.o.log(`placement requests are no longer served: ${e.message}`));
    this.commandSub = this.nc.subscribe(this.names.command(this.o.name));
    this.serveCommands(this.commandSub).catch((e: Error) => this.o.log(`commands are no longer served: ${e.message}`));
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.sub?.unsubscribe();
    this.commandSub?.unsubscribe();
    await this.relay?.close();
    // Bounded: with NATS away the delete waits for its timeout, and a drain forever.
    if (this.registry) await withTimeout(this.registry.deleteHost(this.o.name), 2000).catch(() => undefined);
    await closeNats(this.nc);
  }

  private async heartbeat(): Promise<void> {
    await this.registry
      ?.putHost({
        name: this.o.name,
        pid: process.pid,
        project_dir: this.o.projectDir,
        heartbeat: Date.now(),
        started_at: this.startedAt,
      })
      .catch(() => undefined);
  }

  private async serve(sub: Subscription): Promise<void> {
    const context: HostContext = {
      hostName: this.o.name,
      projectDir: this.o.config.hosts[this.o.name]?.projectDir ?? undefined,
      servedDir: canonicalPath(this.o.projectDir, this.o.projectDir) ?? this.o.projectDir,
      relaySocket: this.relaySocket,
      env: this.o.env,
      configPath: this.o.configPath,
      ...(this.o.configDigest ? { configDigest: this.o.configDigest } : {}),
      placements: this.placements,
    };
    let waiting = 0;
    let chain = Promise.resolve();
    for await (const m of sub) {
      if (waiting >= MAX_WAITING_PLACEMENTS) {
        const busy = `host ${this.o.name} is busy: ${waiting} placements are waiting`;
        this.answer(m, placementError(busy), placementError);
        continue;
      }
      waiting++;
      chain = chain.then(async () => {
        const reply = await this.place(m.data, context);
        waiting--;
        this.answer(m, reply, placementError);
        if (reply.ok) this.o.log(`placed pod on this host: pid ${reply.pid}, ${reply.socket}`);
        else this.refusals.refused(`refused a placement: ${reply.error}`);
      });
    }
  }

  /** Commands run concurrently (a long `shutdown` must not hold a `get_history`), a bounded number at once. */
  private async serveCommands(sub: Subscription): Promise<void> {
    const server = new CommandServer(this.placements, this.o.env);
    let running = 0;
    for await (const m of sub) {
      if (running >= MAX_WAITING_PLACEMENTS * 4) {
        this.answer(m, commandError(`host ${this.o.name} is busy`), commandError);
        continue;
      }
      running++;
      void server
        .handle(m.data)
        .catch((e: Error) => commandError(e.message))
        .then((reply) => this.answer(m, reply, commandError))
        .finally(() => running--);
    }
  }

  /**
   * Answers a request and never throws (publishing throws synchronously, and one reply must not
   * end `yoi host`). A reply over the server's max_payload is replaced by `refuse`'s error naming
   * the sizes, so the requester says why instead of timing out; after stop() drained the
   * connection no one is left to answer.
   */
  private answer<R extends SpawnReply | CommandReply>(m: Msg, reply: R, refuse: (message: string) => R): void {
    let text = JSON.stringify(reply);
    const bytes = Buffer.byteLength(text);
    const max = this.nc?.info?.max_payload ?? Infinity;
    if (bytes > max)
      text = JSON.stringify(
        refuse(
          `host ${this.o.name}: the reply is ${bytes} bytes, more than the NATS server's max_payload (${max} bytes)`,
        ),
      );
    try {
      m.respond(text);
    } catch (e) {
      if (!this.nc?.isClosed() && !this.nc?.isDraining())
        this.o.log(`cannot answer a request on ${m.subject}: ${(e as Error).message}`);
    }
  }

  private async place(data: Uint8Array, context: HostContext): Promise<SpawnReply> {
    if (data.length > MAX_MESSAGE_BYTES) return { ok: false, error: 'the placement request is too large' };
    let raw: unknown;
    try {
      raw = JSON.parse(Buffer.from(data).toString('utf8'));
    } catch {
      return { ok: false, error: 'the placement request is not JSON' };
    }
    const parsed = SpawnRequestSchema.safeParse(raw);
    if (!parsed.success)
      return { ok: false, error: `invalid placement request: ${formatZodError(parsed.error, SpawnRequestSchema)}` };
    try {
      return await placeChild(parsed.data, context);
    } catch (e) {
      return { ok: false, error: (e as Error).message };
    }
  }
}

const placementError = (error: string): SpawnReply => ({ ok: false, error });
const commandError = (message: string): CommandReply => ({ ok: false, code: 'internal', message });
