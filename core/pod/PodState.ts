import type { PodStatus } from '../protocol/index.js';

/**
 * What changes the pod's state: a run `start`s (run, resume, a notification), ends `paused` or
 * `stop`s (finished, cancelled, failed); a paused run is `abandon`ed (cancel while paused); a
 * compaction starts (`compact`) and ends (`compacted`).
 */
export type PodTransition = 'start' | 'pause' | 'stop' | 'abandon' | 'compact' | 'compacted';

/** `back`: the state the pod was in when the compaction started. */
const TABLE: Readonly<Record<PodStatus, Partial<Record<PodTransition, PodStatus | 'back'>>>> = {
  idle: { start: 'running', compact: 'compacting' },
  paused: { start: 'running', abandon: 'idle', compact: 'compacting' },
  running: { pause: 'paused', stop: 'idle', compact: 'compacting' },
  // A run stopped during its mid-turn compaction ends from here, with its own terminal event.
  compacting: { compacted: 'back', pause: 'paused', stop: 'idle' },
};

/**
 * The pod's one state machine (ARCHITECTURE §4.2): idle / running / paused / compacting, every
 * change through the transition table, every change reported to the listener (status.json, the
 * v2 `status` event). A transition the table does not allow is a bug and throws.
 */
export class PodState {
  #status: PodStatus = 'idle';
  /** Where a compaction returns to. */
  #back: Exclude<PodStatus, 'compacting'> = 'idle';
  readonly #listeners: ((status: PodStatus, from: PodStatus) => void)[] = [];

  get status(): PodStatus {
    return this.#status;
  }

  /** True while a run is active (also during its mid-turn compaction). */
  get runActive(): boolean {
    return this.#status === 'running' || (this.#status === 'compacting' && this.#back === 'running');
  }

  can(transition: PodTransition): boolean {
    const to = TABLE[this.#status][transition];
    if (to === undefined) return false;
    return this.#status !== 'compacting' || transition === 'compacted' || this.#back === 'running';
  }

  apply(transition: PodTransition): PodStatus {
    if (!this.can(transition)) throw new Error(`invalid pod state transition: ${transition} while ${this.#status}`);
    const from = this.#status;
    const to = TABLE[from][transition]!;
    if (transition === 'compact') this.#back = from as Exclude<PodStatus, 'compacting'>;
    this.#status = to === 'back' ? this.#back : to;
    for (const listener of this.#listeners) listener(this.#status, from);
    return this.#status;
  }

  onChange(listener: (status: PodStatus, from: PodStatus) => void): void {
    this.#listeners.push(listener);
  }
}
