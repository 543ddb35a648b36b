import type { LockRule } from '../tree/ScopeLockSchema.js';
import { defineService, type Event, type PodStatus } from '../../../core/api.js';

/** What SpawnPod asks of another host. */
export interface RemoteSpawn {
  readonly name: string;
  readonly host: string;
  readonly task: string;
  readonly instruction?: string;
  /** Canonical rules on this pod's machine; the host maps them onto its copy of the project. */
  readonly scope: LockRule[];
  /** The child's report secret. */
  readonly secret: string;
  /** The spawning pod. */
  readonly parent: string;
  readonly cwd: string;
  readonly projectDir: string;
}

/** Where a remote child runs, as its host answered. */
export interface RemotePlacement {
  readonly host: string;
  /** Its socket on that host (for display: it is not reachable from here). */
  readonly socket: string;
  readonly pid: number;
}

/**
 * Pods on other hosts, for the pod tools: provided by a placement plugin (`yoi:cluster`), absent
 * without one (SpawnPod then refuses `host`). Pods on this host never go through it.
 */
export interface RemotePods {
  /** This machine's host name. */
  readonly hostName: string;
  /** Starts the child on `spawn.host`; rejects with a one-line reason. */
  spawn(spawn: RemoteSpawn): Promise<RemotePlacement>;
  /** Whether the pod is registered in the cluster now (undefined: the cluster cannot be asked). */
  isRegistered(name: string): Promise<boolean | undefined>;
  /**
   * Sends one method (`run`, `get_history`, `shutdown`, ...) to pod `pod` on `host` as this pod
   * (`pod/<parent>`), signed with the pod's secret; resolves with the pod's reply (`ack`,
   * `history`) and its state, rejects with a one-line reason (a `PodRequestError` for the pod's own refusals).
   */
  command(request: RemoteCommand): Promise<RemoteReply>;
}

export interface RemoteCommand {
  readonly host: string;
  readonly pod: string;
  readonly parent: string;
  readonly secret: string;
  readonly method: { method: string; params?: unknown };
}

export interface RemoteReply {
  readonly reply: Event;
  readonly status?: PodStatus;
  readonly session_id?: string;
}

export const RemotePodsService = defineService<RemotePods>(
  'yoi:remote-pods',
  'pods on other hosts (placement, liveness)',
);
