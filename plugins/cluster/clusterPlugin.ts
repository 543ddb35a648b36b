import { ClusterConfigSchema } from './ClusterConfigSchema.js';
import { ClusterNode } from './ClusterNode.js';
import { clusterHostName } from './hostName.js';
import { PodTreeService } from '../podtree/podTreePlugin.js';
import { RemotePodsService } from '../podtree/shared/RemotePods.js';
import { definePlugin } from '../../core/api.js';

export const CLUSTER = 'yoi:cluster';

/**
 * Cluster mode (`cluster: {nats: {servers, credsFile?, prefix?}}`): registers the pod in the
 * cluster's JetStream KV bucket while it runs, places children on other hosts for SpawnPod
 * `host`, and applies the reports they publish to JetStream. Without a `cluster` section it
 * does nothing at all.
 */
export const clusterPlugin = definePlugin({
  name: CLUSTER,
  config: { key: 'cluster', schema: ClusterConfigSchema },
  apply(api) {
    const config = api.config;
    if (!config) return;
    const node = new ClusterNode(config, clusterHostName(config), CLUSTER);
    api.provide(RemotePodsService, node);
    const podTree = api.useOptional(PodTreeService);
    api.hooks.podStart.tapPromise(CLUSTER, async (pod) => node.start(pod, podTree()));
    api.hooks.podStop.tapPromise(CLUSTER, (pod) => node.stop(pod));
  },
});
