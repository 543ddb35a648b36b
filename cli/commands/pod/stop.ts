import { YoiCommand } from '../../YoiCommand.js';
import { configFlags, podFlags } from '../../flags.js';

export default class PodStop extends YoiCommand {
  static override summary = 'Stop a pod cleanly (its run gets its terminal event, the log is flushed).';
  static override flags = { ...configFlags, ...podFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(PodStop);
    const { connectPod } = await import('../../podTarget.js');
    const { client, name } = await connectPod(flags);
    const { YoiError } = await import('../../../core/errors/YoiError.js');
    try {
      await client.request({ method: 'shutdown' });
      const timeout = new Promise((_, reject) =>
        setTimeout(
          () => reject(new YoiError('YOI_ERR_TIMEOUT', `pod ${name} did not stop within 15 s`)),
          15_000,
        ).unref(),
      );
      await Promise.race([client.closed, timeout]);
    } finally {
      await client.close();
    }
    this.print(`stopped ${name}`);
  }
}
