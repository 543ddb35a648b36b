import type { ReportsSnapshot } from '../session/SessionEntry.js';
import { RecentRequestIds } from './RecentRequestIds.js';

/** Request ids remembered per reporting pod (its outbox has one report in flight at a time). */
const PER_SOURCE = 64;
/** Reporting pods remembered (the least recently active forgotten first). */
const MAX_SOURCES = 256;

/** A report's note the model has not read yet. */
export type PendingNote = ReportsSnapshot['pending'][number];

/**
 * The reports a pod has applied, keyed by reporting pod and request id, and the notes of those
 * its model has not yet read. Restored from the session log (`pod_event` entries, a compacted
 * session's `session_start.reports`), so a report that a child (or the JetStream consumer)
 * retries after the pod was killed is acknowledged without being applied again, and a note the
 * model had not read yet is given to it after the restart. Bounded: the newest 64 ids of the 256
 * most recently active reporters.
 */
export class ReportLedger {
  private readonly applied = new RecentRequestIds(PER_SOURCE, MAX_SOURCES);
  private count = 0;
  private readonly inFlight = new Map<string, Promise<unknown>>();
  private pending: PendingNote[] = [];

  /** The ledger of a restored session (or an empty one). */
  static restore(snapshot?: ReportsSnapshot): ReportLedger {
    const ledger = new ReportLedger();
    for (const [from, ids] of Object.entries(snapshot?.applied ?? {})) for (const id of ids) ledger.remember(from, id);
    ledger.pending = [...(snapshot?.pending ?? [])];
    return ledger;
  }

  /**
   * Applies a report once: `apply` runs for an id not seen before; a repeat of one being applied
   * waits for it (so its ack never precedes the first one's record), a repeat of an applied one
   * resolves at once. True when `apply` ran.
   */
  async once(from: string, id: string, apply: () => Promise<void>): Promise<boolean> {
    const key = `${from}\n${id}`;
    const running = this.inFlight.get(key);
    if (running) {
      await running.catch(() => undefined);
      return false;
    }
    if (this.applied.has(from, id)) return false;
    const work = apply();
    this.inFlight.set(key, work);
    try {
      await work;
      return true;
    } finally {
      this.inFlight.delete(key);
    }
  }

  /** Notes the report applied (its log entry is written by the caller, in the same step). */
  record(from: string, id: string, note: string | undefined): void {
    this.remember(from, id);
    if (note !== undefined) this.pending.push({ from, request_id: id, note });
  }

  /** The model read every note so far (they were committed to the history). */
  drained(): void {
    this.pending = [];
  }

  /** Notes not read yet (restored ones included). */
  get pendingNotes(): readonly PendingNote[] {
    return this.pending;
  }

  /** What a compacted session starts with; undefined when there is nothing to carry. */
  snapshot(): ReportsSnapshot | undefined {
    if (this.count === 0 && this.pending.length === 0) return undefined;
    return { applied: this.applied.entries(), pending: [...this.pending] };
  }

  private remember(from: string, id: string): void {
    if (this.applied.add(from, id)) this.count++;
  }
}
