import { YoiCommand } from '../YoiCommand.js';
import { configFlags, jsonFlag, podFlags } from '../flags.js';

export default class Asks extends YoiCommand {
  static override summary = 'List the tool calls waiting for permission.';
  static override description =
    'Shows the pending permission requests of the pod — its own and those of the pods it spawned — with their id, the pod whose call waits, what the call does, and how long until the default decision applies. Answer them with yoi approve ID or yoi deny ID.';
  static override examples = ['<%= config.bin %> asks', '<%= config.bin %> asks --json --pod reviewer'];
  static override flags = { ...configFlags, ...podFlags, ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(Asks);
    const [{ connectPod }, { YoiError }, { askLines }] = await Promise.all([
      import('../podTarget.js'),
      import('../../core/errors/YoiError.js'),
      import('../permissionLines.js'),
    ]);
    const { client, name, target } = await connectPod(flags);
    let reply;
    try {
      reply = await client.requestExtension('permission_list');
    } catch (e) {
      throw new YoiError(
        'YOI_ERR_REQUEST',
        `pod ${name} cannot list permission requests (is plugin yoi:permissions applied?): ${(e as Error).message}`,
      );
    } finally {
      await client.close();
    }
    const requests = ((reply.data ?? {}) as { requests?: unknown[] }).requests ?? [];
    if (flags.json) {
      this.printJson(requests);
      return;
    }
    for (const line of askLines(requests, target)) this.print(line);
  }
}
