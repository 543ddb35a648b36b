import { PodMethodCommand } from '../methodCommand.js';

export default class Pause extends PodMethodCommand {
  static override summary = 'Pause the running turn; `yoi resume` continues it.';
  protected readonly method = 'pause';
  protected readonly done = 'paused';
}
