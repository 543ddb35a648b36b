import { PodMethodCommand } from '../methodCommand.js';

export default class Cancel extends PodMethodCommand {
  static override summary = 'Cancel the running turn (or abandon a paused one).';
  protected readonly method = 'cancel';
  protected readonly done = 'cancelled';
}
