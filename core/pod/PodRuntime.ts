import type { EventBus } from '../bus/EventBus.js';
import type { ReportLedger } from '../controller/ReportLedger.js';
import type { ResolvedConfig } from '../config/resolveConfig.js';
import type { Hooks } from '../hooks/createHooks.js';
import type { PodInfo } from '../hooks/HookTypes.js';
import type { HistoryItem } from '../history/HistoryItem.js';
import type { Provider } from '../provider/Provider.js';
import type { AlertLevel, AlertSource } from '../protocol/index.js';
import type { SegmentKindRegistry } from '../segments/SegmentKindRegistry.js';
import type { SessionLog } from '../session/SessionLog.js';
import type { PodState } from './PodState.js';

/**
 * What the pod's parts (the run controller, the compactor, method dispatch) share: one state
 * machine, one history, the current session log. Owned by `Pod`; nobody reaches through
 * another part to get at it.
 */
export interface PodRuntime {
  readonly hooks: Hooks;
  readonly bus: EventBus;
  readonly provider: Provider;
  readonly info: PodInfo;
  readonly config: ResolvedConfig;
  readonly segmentKinds: SegmentKindRegistry;
  readonly state: PodState;
  /** The conversation; compaction replaces its contents in place. */
  readonly history: HistoryItem[];
  /** The session's system prompt (per-run instructions are added to it per request). */
  readonly systemPrompt: string;
  /** The current session log (compaction switches it). */
  session: SessionLog;
  /** The children's reports applied, carried across restarts and compactions. */
  readonly reports: ReportLedger;
  /** Work that must finish before the pod counts as settled (runs, their tails, idle compactions). */
  readonly work: WorkTracker;
  alert(level: AlertLevel, message: string, source?: AlertSource): void;
}

/** Tracks the pod's in-flight work so shutdown can wait for all of it. */
export class WorkTracker {
  #tail: Promise<void> = Promise.resolve();

  /** Adds work; `settled()` waits for it too. */
  track(work: Promise<unknown>): void {
    const previous = this.#tail;
    this.#tail = Promise.all([
      previous,
      work.then(
        () => undefined,
        () => undefined,
      ),
    ]).then(() => undefined);
  }

  /** Resolves once no tracked work is left (including work added while waiting). */
  async settled(): Promise<void> {
    let seen: Promise<void> | undefined;
    while (seen !== this.#tail) {
      seen = this.#tail;
      await seen;
    }
  }
}
