import { exposedGc, v8Module } from '../util/exposedGc.js';

/**
 * Node has no idle-time GC: a scavenge falls wherever an allocation finds the young generation
 * full, and in back-to-back runs that was often the start of the next run (one echo run in ~17
 * met a 0.7 ms scavenge, most of bench/latency's tail). Called at a run's end, before the pod
 * says it is idle: when the young generation is at least half full, `beforeCollecting` sends
 * what the run queued, then it is collected, where no client waits.
 */
export function collectYoungGarbage(beforeCollecting: () => void): void {
  const gc = exposedGc();
  if (gc === null) return;
  const young = v8Module()
    .getHeapSpaceStatistics()
    .find((s) => s.space_name === 'new_space');
  if (young === undefined || young.space_used_size < young.space_available_size) return;
  beforeCollecting();
  gc({ type: 'minor' });
}
