import { FailureLimiter } from './FailureLimiter.js';

/**
 * Refusals, one line each on a log (a pod's stderr, its `pod.log` when detached; `yoi host`'s
 * stderr), bounded: at most `burst` lines at once and one more every `refillMs`; what is left
 * out is counted and said with the next line written, so a flood of attempts cannot flood the log.
 */
export class RefusalLog {
  private readonly budget: FailureLimiter;
  private suppressed = 0;

  constructor(
    private readonly write: (line: string) => void,
    opts: { burst: number; refillMs: number } = { burst: 20, refillMs: 3000 },
  ) {
    this.budget = new FailureLimiter({ ...opts, maxKeys: 1 });
  }

  /** Writes `line` (no newline), or counts it when the budget is spent. */
  refused(line: string): void {
    if (!this.budget.allows('log')) {
      this.suppressed++;
      return;
    }
    this.budget.fail('log');
    const more = this.suppressed > 0 ? ` (${this.suppressed} more refused attempts not logged before this one)` : '';
    this.suppressed = 0;
    this.write(`${line}${more}`);
  }
}
