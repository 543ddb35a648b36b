import { YoiCommand } from './YoiCommand.js';
import { configFlags, jsonFlag, podFlags } from './flags.js';

/**
 * A command that sends one argument-less method to a pod and reports the pod's answer: a line
 * (`cancelled (alpha)`), or with `--json` an object `{"pod", "method", "status"}`. A refusal is
 * one line saying what state the pod is in and what to do.
 */
export abstract class PodMethodCommand extends YoiCommand {
  static override flags = { ...configFlags, ...podFlags, ...jsonFlag };
  protected abstract readonly method: 'cancel' | 'pause' | 'resume';
  /** Printed on success, e.g. `cancelled`. */
  protected abstract readonly done: string;

  async run(): Promise<void> {
    const { flags } = await this.parse(PodMethodCommand);
    const [{ connectPod }, { explainRefusal }] = await Promise.all([
      import('./podTarget.js'),
      import('./explainRefusal.js'),
    ]);
    const { client, name, target } = await connectPod(flags);
    try {
      await client.request({ method: this.method }).catch((e: unknown) => {
        throw explainRefusal(e, target, this.method);
      });
      if (flags.json) this.printJson({ pod: name, method: this.method, result: this.done }, 0);
      else this.print(`${this.done} (${name})`);
    } finally {
      await client.close();
    }
  }
}
