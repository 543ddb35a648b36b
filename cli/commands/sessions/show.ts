import { Args } from '@oclif/core';
import { YoiCommand } from '../../YoiCommand.js';
import { configFlags, jsonFlag } from '../../flags.js';

export default class SessionsShow extends YoiCommand {
  static override summary = 'Show one session: what `yoi sessions` lists, every line checked, and its history.';
  static override description =
    'Reads the whole log and checks its hash chain line by line: a break names the first line that was changed. For a compacted session, also whether the session it came from still ends where it was compacted. ID may be a unique prefix.';
  static override examples = [
    '<%= config.bin %> sessions show 0190c2a1',
    '<%= config.bin %> sessions show 0190c2a1 --json',
  ];
  static override args = { id: Args.string({ description: 'session id (or a unique prefix of it)', required: true }) };
  static override flags = { ...configFlags, ...jsonFlag };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SessionsShow);
    const [{ loadProject }, { loadSessionDetails }] = await Promise.all([
      import('../../loadProject.js'),
      import('../../sessionDetails.js'),
    ]);
    const { config } = await loadProject({ configFile: flags.config, checkProvider: false });
    const { summary, state, link } = await loadSessionDetails(config.sessions.dir, args.id);
    if (flags.json) {
      this.printJson({ ...summary, ...(link ? { compaction_link: link } : {}), history: state.history });
      return;
    }
    const [{ formatSessionDetails }, { formatHistoryItem }] = await Promise.all([
      import('../../formatSessions.js'),
      import('../../formatHistoryItem.js'),
    ]);
    for (const line of formatSessionDetails(summary, state.chain.hashed, state.start.compacted_from?.at, link))
      this.print(line);
    this.print('');
    for (const item of state.history) this.print(formatHistoryItem(item));
  }
}
