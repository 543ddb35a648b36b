import { Flags } from '@oclif/core';
import { YoiCommand } from '../../YoiCommand.js';
import { configFlags, jsonFlag } from '../../flags.js';

export default class Sessions extends YoiCommand {
  static override summary = "List the project's sessions: id, pod, started, last activity, items, compaction.";
  static override description =
    "Reads the session logs of the project (the config's sessions.dir), most recently active first. A large log is read only at its ends: its first line and its last 16 KiB; --verify checks every line's hash. A log whose hash chain is broken (changed after yoi wrote it) is marked CHAIN BROKEN; one written before logs were chained, unchained. `yoi pod start --name N --resume ID` continues one.";
  static override examples = [
    '<%= config.bin %> sessions',
    '<%= config.bin %> sessions --pod reviewer --json',
    '<%= config.bin %> sessions show 0190c2a1',
  ];
  static override flags = {
    ...configFlags,
    ...jsonFlag,
    pod: Flags.string({ description: "only this pod's sessions", helpValue: 'NAME' }),
    verify: Flags.boolean({ description: "check every line's hash (reads whole logs)" }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Sessions);
    const [{ loadProject }, { listSessionSummaries }, { liveSessionIds }] = await Promise.all([
      import('../../loadProject.js'),
      import('../../../core/session/listSessionSummaries.js'),
      import('../../liveSessionIds.js'),
    ]);
    const { config } = await loadProject({ configFile: flags.config, checkProvider: false });
    const dir = config.sessions.dir;
    const { sessions, unreadable } = listSessionSummaries(dir, { verify: flags.verify, live: await liveSessionIds() });
    for (const u of unreadable) process.stderr.write(`yoi: skipped ${u.file}: ${u.reason}\n`);
    const shown = flags.pod === undefined ? sessions : sessions.filter((s) => s.pod === flags.pod);
    if (flags.json) {
      this.printJson(shown);
      return;
    }
    if (shown.length === 0) {
      // Skipped logs are still sessions: "no sessions" above their warnings would contradict them.
      const none = unreadable.length === 0 ? 'no sessions' : `no readable sessions (${unreadable.length} skipped)`;
      this.print(flags.pod === undefined ? `${none} in ${dir}` : `${none} of pod ${flags.pod} in ${dir}`);
      return;
    }
    const { formatSessionTable } = await import('../../formatSessions.js');
    for (const line of formatSessionTable(shown)) this.print(line);
  }
}
