import type { ClusterConfig } from './ClusterConfigSchema.js';
import type { HostEntry, PodEntry } from './ClusterEntries.js';
import { ClusterRegistry } from './ClusterRegistry.js';
import { clusterNames } from './clusterNames.js';
import { connectNats } from './connectNats.js';
import { CLUSTER } from './clusterPlugin.js';
import { YoiError } from '../../core/api.js';

/** The `cluster` section of a loaded config, or a one-line error saying it is missing. */
export function clusterSection(sections: ReadonlyMap<string, unknown>): ClusterConfig {
  const section = sections.get(CLUSTER) as ClusterConfig | undefined;
  if (!section)
    throw new YoiError(
      'YOI_ERR_CLUSTER_NOT_CONFIGURED',
      'cluster mode needs a `cluster: {nats: {servers}}` section in the config',
    );
  return section;
}

/** Every pod and host registered in the cluster now (one connection, closed after). */
export async function readCluster(config: ClusterConfig): Promise<{ pods: PodEntry[]; hosts: HostEntry[] }> {
  const nc = await connectNats(config.nats, 'yoi pod list');
  try {
    const registry = await ClusterRegistry.open(nc, clusterNames(config.nats.prefix), config.ttlMs);
    const [pods, hosts] = await Promise.all([registry.listPods(), registry.listHosts()]);
    return { pods, hosts };
  } catch (e) {
    throw new YoiError('YOI_ERR_CLUSTER', `cannot read the cluster registry: ${(e as Error).message}`);
  } finally {
    await nc.close().catch(() => undefined);
  }
}

/** One line per pod: name, host, status, parent, pid, socket. */
export function clusterPodLines(pods: readonly PodEntry[]): string[] {
  if (pods.length === 0) return ['no pods in the cluster'];
  const w = Math.max(...pods.map((p) => p.name.length));
  const h = Math.max(...pods.map((p) => p.host.length));
  return pods.map(
    (p) =>
      `${p.name.padEnd(w)}  ${p.host.padEnd(h)}  ${p.status.padEnd(10)}  parent=${p.parent ?? '-'}  pid=${p.pid}  ${p.endpoints.socket}`,
  );
}
