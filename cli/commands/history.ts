import { Flags } from '@oclif/core';
import { YoiCommand } from '../YoiCommand.js';
import { configFlags, jsonFlag, podFlags } from '../flags.js';

export default class History extends YoiCommand {
  static override summary = "Print a pod's conversation history.";
  static override description =
    'Prints the current session (after a compaction: the summary and the recent items it kept). With --chain, also the sessions it was compacted from, oldest first, read from the session logs of the project.';
  static override flags = {
    ...configFlags,
    ...podFlags,
    ...jsonFlag,
    chain: Flags.boolean({ description: 'include the sessions this one was compacted from (oldest first)' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(History);
    const { connectPod } = await import('../podTarget.js');
    const { client } = await connectPod(flags);
    const reply = await client.request({ method: 'get_history' }).finally(() => client.close());
    // A v1 pod has no session id: its history is all there is.
    const sessionId = client.welcome?.session_id;
    if (reply.event !== 'history') return;
    const { formatHistoryItem } = await import('../formatHistoryItem.js');
    if (!flags.chain || !sessionId) {
      if (flags.json) this.printJson(reply.data.items);
      else for (const item of reply.data.items) this.print(formatHistoryItem(item));
      return;
    }
    const [{ loadProjectConfig }, { readSessionChain }, { formatChain }] = await Promise.all([
      import('../loadProject.js'),
      import('../../core/session/readSessionChain.js'),
      import('../historyChain.js'),
    ]);
    const config = await loadProjectConfig({ configFile: flags.config });
    const { sessions, missing } = readChainOrNone(readSessionChain, config.sessions.dir, sessionId);
    const { describeChain } = await import('../../core/session/ChainCheck.js');
    // The newest session is the pod's live history (it may be ahead of what was synced).
    const chain = sessions.map((s, i) => ({
      session_id: s.sessionId,
      ...(s.start.compacted_from ? { compacted_from: s.start.compacted_from } : {}),
      items: i === sessions.length - 1 ? reply.data.items : s.history,
      startItems: s.start.history?.length ?? 0,
      ...(s.chain.status === 'intact' ? {} : { chain: describeChain(s.chain) }),
    }));
    if (chain.length === 0) chain.push({ session_id: sessionId, items: reply.data.items, startItems: 0 });
    if (flags.json) {
      this.printJson(chain.map(({ startItems: _s, ...rest }) => rest));
      return;
    }
    for (const line of formatChain(chain, formatHistoryItem, missing)) this.print(line);
  }
}

/** The chain of the live session; none yet when its log has no entry but `session_start` (it is written with the first). */
function readChainOrNone(
  read: typeof import('../../core/session/readSessionChain.js').readSessionChain,
  dir: string,
  id: string,
): ReturnType<typeof read> {
  try {
    return read(dir, id);
  } catch (e) {
    if ((e as { code?: unknown }).code === 'YOI_ERR_SESSION_NOT_FOUND') return { sessions: [] };
    throw e;
  }
}
