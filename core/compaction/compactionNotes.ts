/** Compaction settings as the config resolves them. */
export interface CompactionSettings {
  readonly threshold?: number;
  readonly requestThreshold?: number;
  readonly retainedTokens: number;
}

/**
 * What is odd about a compaction config, said once when the pod starts: settings that are
 * valid but cannot do what they seem to promise.
 */
export function compactionNotes(s: CompactionSettings): string[] {
  const notes: string[] = [];
  if (s.threshold !== undefined && s.requestThreshold !== undefined && s.threshold > s.requestThreshold) {
    notes.push(
      `compaction.threshold (${s.threshold}) is above compaction.requestThreshold (${s.requestThreshold}): runs compact mid-turn before the post-run threshold is reached`,
    );
  }
  for (const [key, value] of [
    ['threshold', s.threshold],
    ['requestThreshold', s.requestThreshold],
  ] as const) {
    if (value !== undefined && s.retainedTokens >= value) {
      notes.push(
        `compaction.retainedTokens (${s.retainedTokens}) is not below compaction.${key} (${value}): a compaction may not bring the context under it`,
      );
    }
  }
  return notes;
}
