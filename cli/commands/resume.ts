import { PodMethodCommand } from '../methodCommand.js';

export default class Resume extends PodMethodCommand {
  static override summary = 'Resume a paused turn.';
  protected readonly method = 'resume';
  protected readonly done = 'resumed';
}
