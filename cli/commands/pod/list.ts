import { YoiCommand } from '../../YoiCommand.js';
import { jsonFlag } from '../../flags.js';

export default class PodList extends YoiCommand {
  static override summary = 'List the pods of this user as a tree (parent → children), with the scope each holds.';
  static override description =
    'Reads the runtime directory: each pod\'s state and pid, its parent and children (from scope.lock and the spawned_pods.json of each pod) and the scope it holds in scope.lock. --json prints one object per pod with `parent`, `children` and `scope`.';
  static override flags = { ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(PodList);
    const [{ listPods }, { runtimeBase }, { podTree, podTreeLines }] = await Promise.all([
      import('../../../core/pod/listPods.js'), import('../../../core/pod/runtimePaths.js'), import('../../podTreeListing.js'),
    ]);
    const pods = podTree(await listPods(), runtimeBase());
    if (flags.json) {
      this.print(JSON.stringify(pods, null, 2));
      return;
    }
    if (pods.length === 0) {
      this.print('no pods');
      return;
    }
    for (const line of podTreeLines(pods)) this.print(line);
  }
}
