import { YoiCommand } from '../../YoiCommand.js';
import { jsonFlag } from '../../flags.js';

export default class PodList extends YoiCommand {
  static override summary = 'List the pods of this user (from the runtime directory).';
  static override flags = { ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(PodList);
    const { listPods } = await import('../../../core/pod/listPods.js');
    const pods = await listPods();
    if (flags.json) {
      this.print(JSON.stringify(pods, null, 2));
      return;
    }
    if (pods.length === 0) {
      this.print('no pods');
      return;
    }
    for (const p of pods) this.print(`${p.name}\t${p.untrusted ? `untrusted (${p.untrusted})` : p.alive ? p.state : 'stopped (stale)'}\tpid ${p.pid ?? '-'}\tsession ${p.session_id ?? '-'}\t${p.socket}`);
  }
}
