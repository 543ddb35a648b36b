import { FailureLimiter } from './FailureLimiter.js';

/**
 * Refused attempts, one line each on the pod's stderr (its `pod.log` when detached), bounded:
 * at most `burst` lines at once and one more every `refillMs`; what is left out is counted and
 * said with the next line, so a flood of attempts cannot flood the log.
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

  refused(address: string, status: number, why: string, limitedForMs: number): void {
    if (!this.budget.allows('log')) {
      this.suppressed++;
      return;
    }
    this.budget.fail('log');
    const more = this.suppressed > 0 ? ` (${this.suppressed} more refused attempts not logged before this one)` : '';
    this.suppressed = 0;
    const limited =
      limitedForMs > 0 ? `; further attempts from it get HTTP 429 for ${Math.ceil(limitedForMs / 1000)} s` : '';
    this.write(`yoi: yoi:ws: refused a connection from ${address} (HTTP ${status}): ${why}${limited}${more}\n`);
  }
}
