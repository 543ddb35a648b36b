import { YoiCommand } from './YoiCommand.js';
import { configFlags, podFlags } from './flags.js';

/** A command that sends one argument-less method to a pod and reports the pod's answer. */
export abstract class PodMethodCommand extends YoiCommand {
  static override flags = { ...configFlags, ...podFlags };
  protected abstract readonly method: 'cancel' | 'pause' | 'resume' | 'compact';
  /** Printed on success, e.g. `cancelled`. */
  protected abstract readonly done: string;

  async run(): Promise<void> {
    const { flags } = await this.parse(PodMethodCommand);
    const { connectPod } = await import('./podTarget.js');
    const { client, name } = await connectPod(flags);
    try {
      await client.request({ method: this.method });
      this.print(`${this.done} (${name})`);
    } finally {
      await client.close();
    }
  }
}
