import { YoiCommand } from '../YoiCommand.js';
import { configFlags, jsonFlag, podFlags } from '../flags.js';

export default class History extends YoiCommand {
  static override summary = "Print a pod's conversation history.";
  static override flags = { ...configFlags, ...podFlags, ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(History);
    const { connectPod } = await import('../podTarget.js');
    const { client } = await connectPod(flags);
    const reply = await client.request({ method: 'get_history' });
    await client.close();
    if (reply.event !== 'history') return;
    if (flags.json) {
      this.print(JSON.stringify(reply.data.items, null, 2));
      return;
    }
    const { formatHistoryItem } = await import('../formatHistoryItem.js');
    for (const item of reply.data.items) this.print(formatHistoryItem(item));
  }
}
