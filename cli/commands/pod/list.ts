import { Flags } from '@oclif/core';
import { YoiCommand } from '../../YoiCommand.js';
import { configFlags, jsonFlag } from '../../flags.js';

export default class PodList extends YoiCommand {
  static override summary = 'List the pods of this user as a tree (parent → children), with the scope each holds.';
  static override description =
    "Reads the runtime directory: each pod's state and pid, its parent and children (from scope.lock and the spawned_pods.json of each pod) and the scope it holds in scope.lock. --json prints one object per pod with `parent`, `children` and `scope`. " +
    "With --cluster, lists every pod registered in the cluster (the config's `cluster` section) instead: one line per pod with its host, status, parent, pid and socket.";
  static override flags = {
    ...jsonFlag,
    ...configFlags,
    cluster: Flags.boolean({ description: "list the pods registered in the cluster (NATS) instead of this machine's" }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(PodList);
    if (flags.cluster) return this.listCluster(flags.config, flags.json);
    const [{ listPods }, { runtimeBase }, { podTree, podTreeLines }] = await Promise.all([
      import('../../../client/listPods.js'),
      import('../../../core/pod/runtimePaths.js'),
      import('../../podTreeListing.js'),
    ]);
    const pods = podTree(await listPods(), runtimeBase());
    if (flags.json) {
      this.printJson(pods);
      return;
    }
    if (pods.length === 0) {
      this.print('no pods');
      return;
    }
    for (const line of podTreeLines(pods)) this.print(line);
  }

  private async listCluster(configFile: string | undefined, json: boolean): Promise<void> {
    const [{ loadProject }, { clusterSection, readCluster, clusterPodLines }] = await Promise.all([
      import('../../loadProject.js'),
      import('../../../plugins/cluster/readCluster.js'),
    ]);
    const { config } = await loadProject({ configFile, checkProvider: false });
    const { pods } = await readCluster(clusterSection(config.sections));
    if (json) this.printJson(pods);
    else for (const line of clusterPodLines(pods)) this.print(line);
  }
}
