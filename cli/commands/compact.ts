import { YoiCommand } from '../YoiCommand.js';
import { configFlags, jsonFlag, podFlags } from '../flags.js';

export default class Compact extends YoiCommand {
  static override summary = "Compact the pod's history now (starts a new session from a summary).";
  static override description =
    "An idle or paused pod compacts at once and the command waits for the result (the new session, or why it failed). During a run the compaction is done before the run's next LLM request, or right after it ends: the command returns once it is scheduled.";
  static override flags = { ...configFlags, ...podFlags, ...jsonFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(Compact);
    const [{ connectPod }, { explainRefusal }, { YoiError }] = await Promise.all([
      import('../podTarget.js'),
      import('../explainRefusal.js'),
      import('../../core/errors/YoiError.js'),
    ]);
    const { client, name, target } = await connectPod(flags);
    try {
      const from = client.welcome?.session_id;
      const now = client.status !== 'running';
      // Registered before the request: the ack and the whole compaction may come in one chunk.
      const result = client
        .waitFor((e) => e.event === 'compact_done' || e.event === 'compact_failed', 2 ** 31 - 1)
        .catch(() => undefined);
      await client.request({ method: 'compact' }).catch((e: unknown) => {
        throw explainRefusal(e, target, 'compact');
      });
      if (!now) {
        if (flags.json) this.printJson({ pod: name, result: 'scheduled' }, 0);
        else this.print(`compaction scheduled (${name}): it runs before the run's next request, or when the run ends`);
        return;
      }
      const end = await result;
      if (end?.event === 'compact_done') {
        const to = end.data.new_session_id;
        if (flags.json)
          this.printJson({ pod: name, result: 'compacted', from_session: from ?? null, session_id: to }, 0);
        else this.print(`compacted (${name}): session ${from ?? '?'} → ${to}`);
        return;
      }
      if (end?.event === 'compact_failed')
        throw new YoiError('YOI_ERR_COMPACTION', `the compaction of pod ${name} failed: ${end.data.error}`);
      throw new YoiError('YOI_ERR_CONNECTION', `the connection to pod ${name} closed before the compaction ended`);
    } finally {
      await client.close();
    }
  }
}
