import { Args, Flags } from '@oclif/core';
import { YoiCommand } from '../YoiCommand.js';
import { configFlags, podFlags } from '../flags.js';

export default class Deny extends YoiCommand {
  static override summary = 'Reject a tool call that waits for permission.';
  static override description =
    'Answers a pending permission request of the pod with reject_once, or with --always reject_always (a rule saved in .yoi/permissions.json then refuses calls like it from now on). --message is passed to the model with the rejection.';
  static override examples = [
    '<%= config.bin %> deny 3f9a1c2e --message "run the unit tests only"',
    '<%= config.bin %> deny 3f9a1c2e --always',
  ];
  static override args = { id: Args.string({ description: 'the permission request id', required: true }) };
  static override flags = {
    ...configFlags,
    ...podFlags,
    always: Flags.boolean({ description: 'reject calls like this one from now on (saved in .yoi/permissions.json)' }),
    message: Flags.string({
      char: 'm',
      description: 'why, for the model (it reads it with the rejection)',
      helpValue: 'M',
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Deny);
    const { answerAsk } = await import('../permissionAnswer.js');
    const decision = flags.always ? 'reject_always' : 'reject_once';
    const name = await answerAsk(flags, args.id, decision, flags.message);
    this.print(`${decision} ${args.id} (${name})`);
  }
}
