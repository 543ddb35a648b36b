import type { Event } from '../../core/protocol/index.js';

/**
 * Follows one v2 client's broadcasts, in order, and checks that every run ends with exactly one
 * terminal event: a run starts when the status becomes `running` (other than on the way back
 * from a mid-run compaction) and ends with `run_end` or a broadcast `error` (no request id)
 * before the status leaves it. Every `compact_start` ends with one `compact_done|failed`.
 */
export class RunLedger {
  runs = 0;
  readonly terminals: Event[] = [];
  compactions = 0;
  compactionEnds = 0;
  readonly violations: string[] = [];
  private status = 'idle';
  private inRun = false;
  private compacting = false;
  private readonly waiters: { pred: () => boolean; resolve: () => void }[] = [];

  readonly onEvent = (e: Event): void => {
    this.apply(e);
    for (const w of this.waiters.filter((w) => w.pred())) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
  };

  /** Resolves once `pred` holds (at once if it does), rejects after `timeoutMs`. */
  when(pred: (ledger: RunLedger) => boolean, timeoutMs = 30_000): Promise<void> {
    if (pred(this)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `ledger: condition not met within ${timeoutMs} ms (${this.runs} runs, ${this.terminals.length} terminal events)`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({ pred: () => pred(this), resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  private apply(e: Event): void {
    const terminal = e.event === 'run_end' || (e.event === 'error' && e.request_id === undefined);
    if (terminal) {
      if (!this.inRun) this.violations.push(`a terminal event (${e.event}) with no run open (seq ${e.seq})`);
      this.inRun = false;
      this.terminals.push(e);
    }
    if (e.event === 'compact_start') {
      if (this.compacting) this.violations.push(`a compaction started before the last one ended (seq ${e.seq})`);
      this.compacting = true;
      this.compactions++;
    }
    if (e.event === 'compact_done' || e.event === 'compact_failed') {
      if (!this.compacting) this.violations.push(`${e.event} without compact_start (seq ${e.seq})`);
      this.compacting = false;
      this.compactionEnds++;
    }
    if (e.event !== 'status') return;
    const to = e.data.status;
    if (to === 'running' && this.status !== 'compacting') {
      if (this.inRun) this.violations.push(`a run started while another had no terminal event (seq ${e.seq})`);
      this.inRun = true;
      this.runs++;
    } else if ((to === 'idle' || to === 'paused') && this.inRun) {
      this.violations.push(`the pod became ${to} without a terminal event (seq ${e.seq})`);
      this.inRun = false;
    }
    this.status = to;
  }

  /** No run and no compaction open. */
  get atRest(): boolean {
    return !this.inRun && !this.compacting && (this.status === 'idle' || this.status === 'paused');
  }
}
