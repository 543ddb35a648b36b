import type { HistoryItem } from '../history/HistoryItem.js';
import { countItemsTokens, estimateItemTokens, estimateItemsTokens } from './estimateTokens.js';

/** The last LLM request whose size the provider reported. */
interface Measured {
  /** Input tokens the provider reported (the whole prompt, cache included). */
  readonly inputTokens: number;
  /** How many history items that request was built from. */
  readonly historyLength: number;
}

/**
 * The size of the pod's context before each LLM request: the input tokens the provider
 * reported for the last request plus an estimate of the items added since (the reply, tool
 * results, notifications). Without a report (none yet, or the history was replaced by a
 * compaction) the whole context is estimated. Measured against the requests actually sent,
 * so a plugin that trims requests in `beforeTurn` is accounted for.
 */
export class ContextTracker {
  private measured?: Measured;

  /** Records one request's reported usage (`undefined`: the provider reported none). */
  record(inputTokens: number | undefined, historyLength: number): void {
    this.measured = inputTokens === undefined ? undefined : { inputTokens, historyLength };
  }

  /** Forgets the measurement (the history was replaced). */
  reset(): void {
    this.measured = undefined;
  }

  /** Estimated tokens of the next request built from `history` with `system`. */
  current(history: readonly HistoryItem[], system: string): number {
    const m = this.measured;
    if (!m || m.historyLength > history.length) return estimateItemsTokens(history, system);
    let n = m.inputTokens;
    for (let i = m.historyLength; i < history.length; i++) n += estimateItemTokens(history[i]);
    return n;
  }

  /** As `current`, counted in pieces that yield to the event loop; rejects once `signal` aborts. */
  async measure(history: readonly HistoryItem[], system: string, signal?: AbortSignal): Promise<number> {
    const m = this.measured;
    if (!m || m.historyLength > history.length) return countItemsTokens(history, system, signal);
    return m.inputTokens + (await countItemsTokens(history.slice(m.historyLength), '', signal));
  }
}
