import { Args, Flags } from '@oclif/core';
import { YoiCommand } from '../YoiCommand.js';
import { configFlags, podFlags } from '../flags.js';

export default class Approve extends YoiCommand {
  static override summary = 'Allow a tool call that waits for permission.';
  static override description =
    "Answers a pending permission request of the pod (yoi asks lists them; a parent pod shows its children's too) with allow_once, or with --always allow_always: a rule saved in .yoi/permissions.json then allows calls like it from now on, also after restarts.";
  static override examples = [
    '<%= config.bin %> approve 3f9a1c2e',
    '<%= config.bin %> approve 3f9a1c2e --always --pod reviewer',
  ];
  static override args = { id: Args.string({ description: 'the permission request id', required: true }) };
  static override flags = {
    ...configFlags,
    ...podFlags,
    always: Flags.boolean({ description: 'allow calls like this one from now on (saved in .yoi/permissions.json)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Approve);
    const { answerAsk } = await import('../permissionAnswer.js');
    const decision = flags.always ? 'allow_always' : 'allow_once';
    const name = await answerAsk(flags, args.id, decision);
    this.print(`${decision} ${args.id} (${name})`);
  }
}
