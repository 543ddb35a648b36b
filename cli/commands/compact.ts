import { PodMethodCommand } from '../methodCommand.js';

export default class Compact extends PodMethodCommand {
  static override summary = "Compact the pod's history now (starts a new session from a summary).";
  protected readonly method = 'compact';
  protected readonly done = 'compaction started';
}
