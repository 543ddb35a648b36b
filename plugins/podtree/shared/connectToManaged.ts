import { connectToPod } from './connectToPod.js';
import type { RemotePods } from './RemotePods.js';
import type { SpawnedPodRecord } from '../tree/SpawnedRegistry.js';
import { type Event, type PodClient, type PodStatus } from '../../../core/api.js';

/** The part of a `PodClient` the pod tools use. */
export interface ManagedPodConnection {
  request(method: Parameters<PodClient['request']>[0]): Promise<Event>;
  readonly welcome?: { status: PodStatus; session_id: string };
  readonly protocol: 1 | 2;
  close(): Promise<void>;
}

/**
 * A connection to a pod this pod manages: its socket for a pod on this machine, the cluster
 * (its host relays each method, signed with the pod's secret) for a pod on another host.
 */
export async function connectToManaged(
  record: SpawnedPodRecord,
  self: string,
  remote: RemotePods | undefined,
): Promise<ManagedPodConnection> {
  if (!record.host) return connectToPod(record.socket_path, self);
  if (!remote || !record.secret)
    throw new Error(`pod \`${record.pod_name}\` runs on host ${record.host}, which needs cluster mode to reach`);
  let welcome: ManagedPodConnection['welcome'];
  return {
    protocol: 2,
    get welcome() {
      return welcome;
    },
    async request(method) {
      const r = await remote.command({
        host: record.host!,
        pod: record.pod_name,
        parent: self,
        secret: record.secret!,
        method,
      });
      if (r.status && r.session_id !== undefined) welcome = { status: r.status, session_id: r.session_id };
      return r.reply;
    },
    close: async () => undefined,
  };
}
