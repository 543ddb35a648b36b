import { YoiCommand } from '../../YoiCommand.js';
import { configFlags, jsonFlag, podFlags } from '../../flags.js';

export default class PodStatus extends YoiCommand {
  static override summary = "Show one pod's state, session and model.";
  static override flags = { ...configFlags, ...podFlags, ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(PodStatus);
    const { connectPod } = await import('../../podTarget.js');
    const { client, name } = await connectPod(flags);
    const history = await client.request({ method: 'get_history' }).finally(() => client.close());
    // A v1 pod sends no welcome: its name and tools come from the history's greeting.
    const w = client.welcome;
    const greeting = history.event === 'history' ? history.data.greeting : undefined;
    const status = {
      pod: w?.pod_name ?? (greeting?.pod_name || name),
      status: w?.status ?? 'unknown',
      session_id: w?.session_id ?? null,
      protocol: client.protocol,
      provider: greeting?.provider,
      model: greeting?.model,
      cwd: greeting?.cwd,
      tools: greeting?.tools,
      segment_kinds: w?.segment_kinds ?? null,
      items: history.event === 'history' ? history.data.items.length : 0,
    };
    if (flags.json) this.printJson(status);
    else for (const [k, v] of Object.entries(status)) this.print(`${k}: ${Array.isArray(v) ? v.join(', ') : v}`);
  }
}
