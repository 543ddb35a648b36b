import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import path from 'node:path';
import type { NatsConnection } from '@nats-io/transport-node';
import { AppliedReports } from './AppliedReports.js';
import { heartbeatMs, type ClusterConfig } from './ClusterConfigSchema.js';
import { ClusterRegistry } from './ClusterRegistry.js';
import { clusterNames, type ClusterNames } from './clusterNames.js';
import { closeNats } from './closeNats.js';
import { withTimeout } from './withTimeout.js';
import { connectNats, MAX_MESSAGE_BYTES } from './connectNats.js';
import { type ApplyOutcome, ReportConsumer } from './ReportConsumer.js';
import { CommandReplySchema, SpawnReplySchema, type CommandBody } from './PlacementSchemas.js';
import { signReport } from './reportSignature.js';
import type {
  RemoteCommand,
  RemotePlacement,
  RemotePods,
  RemoteReply,
  RemoteSpawn,
} from '../podtree/shared/RemotePods.js';
import type { PodTree } from '../podtree/tree/PodTree.js';
import { podClientName } from '../podtree/shared/podClientName.js';
import {
  type ErrorCode,
  type Event,
  PodClient,
  PodRequestError,
  type PodEvent,
  type PodInfo,
  type PodStatus,
  readStatusFile,
} from '../../core/api.js';

/** How long SpawnPod waits for NATS and then for the host's answer. */
const SPAWN_TIMEOUT_MS = 30_000;

/**
 * One pod's membership of the cluster (`services` key `yoi:remote-pods`): connects to NATS in
 * the background — a pod whose NATS is unreachable at start still starts, says so in one
 * alert, and keeps trying —, registers the pod in the `<prefix>pods` bucket and refreshes the
 * entry every heartbeat, reads the reports its remote children publish, notices remote
 * children whose registration expired, and deletes its entry at stop.
 */
export class ClusterNode implements RemotePods {
  readonly names: ClusterNames;
  private nc?: NatsConnection;
  private registry?: ClusterRegistry;
  private consumer?: ReportConsumer;
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private connected?: Promise<void>;
  private readonly startedAt = Date.now();
  private readonly seen = new Set<string>();
  private readonly clients = new Map<string, PodClient>();

  constructor(
    private readonly config: ClusterConfig,
    readonly hostName: string,
    private readonly plugin: string,
  ) {
    this.names = clusterNames(config.nats.prefix);
  }

  start(pod: PodInfo, tree: PodTree | undefined): void {
    this.connected = this.connect(pod, tree);
    // Said here; spawn and command still see the rejection through connection().
    this.connected.catch((e: Error) =>
      pod.services.alert('warn', `${this.plugin}: cannot join the cluster: ${e.message}`),
    );
  }

  async stop(pod: PodInfo): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    // Each step bounded: with NATS away a request waits for its timeout, and a drain forever.
    if (this.consumer) await withTimeout(this.consumer.stop(), 2000).catch(() => undefined);
    for (const c of this.clients.values()) await c.close().catch(() => undefined);
    if (this.registry) await withTimeout(this.registry.deletePod(pod.podName), 2000).catch(() => undefined);
    await closeNats(this.nc);
  }

  async spawn(spawn: RemoteSpawn): Promise<RemotePlacement> {
    const nc = await this.connection(SPAWN_TIMEOUT_MS);
    const request = {
      name: spawn.name,
      parent: spawn.parent,
      task: spawn.task,
      scope: spawn.scope,
      secret: spawn.secret,
      cwd: spawn.cwd,
      project_dir: spawn.projectDir,
      ...(spawn.instruction ? { instruction: spawn.instruction } : {}),
    };
    const payload = JSON.stringify(request);
    if (Buffer.byteLength(payload) > MAX_MESSAGE_BYTES)
      throw new Error('the task is too large to send to another host');
    let reply;
    try {
      reply = await nc.request(this.names.spawn(spawn.host), payload, { timeout: SPAWN_TIMEOUT_MS });
    } catch (e) {
      const noHost = (e as Error).message.includes('no responders') || (e as { code?: string }).code === '503';
      throw new Error(
        noHost
          ? `no \`yoi host\` named \`${spawn.host}\` is serving placements`
          : `host \`${spawn.host}\` did not answer: ${(e as Error).message}`,
      );
    }
    const parsed = SpawnReplySchema.safeParse(safeJson(reply.string()));
    if (!parsed.success) throw new Error(`host \`${spawn.host}\` answered something that is not a placement reply`);
    if (!parsed.data.ok) throw new Error(parsed.data.error);
    this.seen.delete(spawn.name);
    return { host: parsed.data.host, socket: parsed.data.socket, pid: parsed.data.pid };
  }

  async command(c: RemoteCommand): Promise<RemoteReply> {
    const nc = await this.connection(5000);
    const body: CommandBody = {
      pod: c.pod,
      parent: c.parent,
      id: randomBytes(16).toString('hex'),
      at: Date.now(),
      method: c.method as CommandBody['method'],
    };
    const text = JSON.stringify(body);
    const request = JSON.stringify({ body: text, sig: signReport(c.secret, Buffer.from(text, 'utf8')) });
    let answer;
    try {
      answer = await nc.request(this.names.command(c.host), request, { timeout: 30_000 });
    } catch (e) {
      throw new Error(`host \`${c.host}\` did not answer: ${(e as Error).message}`);
    }
    const parsed = CommandReplySchema.safeParse(safeJson(answer.string()));
    if (!parsed.success) throw new Error(`host \`${c.host}\` answered something that is not a command reply`);
    const r = parsed.data;
    if (!r.ok) {
      if (r.code === 'unreachable') throw new Error(r.message);
      throw new PodRequestError(r.code as ErrorCode, `${r.code}: ${r.message}`);
    }
    return {
      reply: r.reply as unknown as Event,
      ...(r.status ? { status: r.status as PodStatus } : {}),
      ...(r.session_id !== undefined ? { session_id: r.session_id } : {}),
    };
  }

  async isRegistered(name: string): Promise<boolean | undefined> {
    if (!this.registry) return undefined;
    const entry = await this.registry.getPod(name).catch(() => null);
    return entry === null ? undefined : entry !== undefined;
  }

  private async connection(timeoutMs: number): Promise<NatsConnection> {
    const timer = sleep(timeoutMs, 'timeout' as const, { ref: false });
    const done = await Promise.race([this.connected?.then(() => 'ok' as const), timer]);
    if (done !== 'ok' || !this.nc) throw new Error(`NATS at ${servers(this.config)} is not reachable`);
    return this.nc;
  }

  private async connect(pod: PodInfo, tree: PodTree | undefined): Promise<void> {
    let alerted = false;
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        this.nc = await connectNats(this.config.nats, `yoi pod ${pod.podName}`);
        break;
      } catch (e) {
        if (!alerted)
          pod.services.alert(
            'warn',
            `${this.plugin}: ${(e as Error).message}; the pod runs without the cluster and keeps trying`,
          );
        alerted = true;
        await sleep(Math.min(5000, 250 * 2 ** attempt), undefined, { ref: false });
      }
    }
    if (this.stopped || !this.nc) return;
    for (let attempt = 0; !this.stopped && !this.registry; attempt++) {
      this.registry = await ClusterRegistry.open(this.nc, this.names, this.config.ttlMs).catch(async () => {
        await sleep(Math.min(5000, 250 * 2 ** attempt), undefined, { ref: false });
        return undefined;
      });
    }
    if (alerted) pod.services.alert('warn', `${this.plugin}: connected to NATS at ${servers(this.config)}`);
    await this.heartbeat(pod, tree);
    this.timer = setInterval(() => void this.heartbeat(pod, tree), heartbeatMs(this.config));
    this.timer.unref();
    if (tree) {
      this.consumer = new ReportConsumer({
        nc: this.nc,
        names: this.names,
        podName: pod.podName,
        secretOf: (child) => tree.secretOf(child),
        applied: new AppliedReports(pod.services.pluginLog, this.plugin),
        apply: (child, secret, event, id) => this.applyReport(pod, child, secret, event, id),
        alert: (message) => pod.services.alert('warn', `${this.plugin}: ${message}`),
      });
      this.consumer.start();
    }
  }

  private async heartbeat(pod: PodInfo, tree: PodTree | undefined): Promise<void> {
    if (!this.registry || this.stopped) return;
    const status = readStatusFile(path.join(pod.services.runtime.dir, 'status.json'));
    await this.registry
      .putPod({
        name: pod.podName,
        host: this.hostName,
        endpoints: { socket: pod.services.runtime.socket },
        status: status?.state ?? 'idle',
        parent: tree?.parentName ?? null,
        pid: process.pid,
        heartbeat: Date.now(),
        started_at: this.startedAt,
      })
      .catch(() => undefined);
    if (tree) await this.checkRemoteChildren(pod, tree);
  }

  /** A remote child whose registration expired (after it was seen, or a TTL after its spawn) is gone. */
  private async checkRemoteChildren(pod: PodInfo, tree: PodTree): Promise<void> {
    for (const record of tree.registry.list()) {
      if (!record.host || !this.registry) continue;
      const entry = await this.registry.getPod(record.pod_name).catch(() => null);
      if (entry === null) return; // NATS is away: nothing can be said
      if (entry) {
        this.seen.add(record.pod_name);
        // Recorded before placement, its socket is known from its registration (when this pod
        // was killed before the host's answer).
        if (!record.socket_path)
          await this.tryTree(pod, `record the socket of pod ${record.pod_name}`, () =>
            tree.registry.update(record.pod_name, { socket_path: entry.endpoints.socket }),
          );
        continue;
      }
      const overdue = Date.now() - (record.spawned_at ?? 0) > 2 * this.config.ttlMs;
      if (!this.seen.has(record.pod_name) && !overdue) continue;
      // Kept in `seen` until it is forgotten: a forget that failed is tried again.
      if (!(await this.tryTree(pod, `forget pod ${record.pod_name}`, () => tree.forget(record.pod_name)))) continue;
      this.seen.delete(record.pod_name);
      pod.services.alert(
        'warn',
        `${this.plugin}: pod ${record.pod_name} on host ${record.host} is gone (its registration expired); it was removed from this pod's pods`,
      );
    }
  }

  /**
   * One change to the pod tree for the heartbeat: it fails when scope.lock is busy, broken or not
   * the user's, or the disk is full. Said, and the next heartbeat checks again (a rejection from
   * the heartbeat's timer would end the pod).
   */
  private async tryTree(pod: PodInfo, what: string, change: () => unknown): Promise<boolean> {
    try {
      await change();
      return true;
    } catch (e) {
      pod.services.alert(
        'warn',
        `${this.plugin}: cannot ${what} (the next heartbeat checks again): ${(e as Error).message}`,
      );
      return false;
    }
  }

  /** Applies a remote child's report through this pod's own socket, as the child would locally. */
  private async applyReport(
    pod: PodInfo,
    child: string,
    secret: string,
    event: PodEvent,
    requestId: string,
  ): Promise<ApplyOutcome> {
    let client = this.clients.get(child);
    try {
      if (!client) {
        client = await PodClient.connect({
          socketPath: pod.services.runtime.socket,
          clientName: podClientName(child),
          auth: secret,
          connectTimeoutMs: 5000,
          requestTimeoutMs: 30_000,
        });
        this.clients.set(child, client);
      }
      await client.request({ method: 'pod_event', params: event }, undefined, requestId);
      return { ok: true };
    } catch (e) {
      this.clients.delete(child);
      await client?.close().catch(() => undefined);
      if (e instanceof PodRequestError && e.podCode === 'invalid_request')
        return { ok: false, retry: false, reason: e.message };
      return { ok: false, retry: true, reason: (e as Error).message };
    }
  }
}

function servers(config: ClusterConfig): string {
  return ([] as string[]).concat(config.nats.servers).join(', ');
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
