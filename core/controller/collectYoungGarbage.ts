import { createRequire } from 'node:module';

type MinorGc = (options: { type: 'minor' }) => void;
let gc: MinorGc | null | undefined;
let v8: typeof import('node:v8') | undefined;

/**
 * Node has no idle-time GC: a scavenge falls wherever an allocation finds the young generation
 * full, and in back-to-back runs that was often the start of the next run (one echo run in ~17
 * met a 0.7 ms scavenge, most of bench/latency's tail). Called at a run's end, before the pod
 * says it is idle: when the young generation is at least half full, `beforeCollecting` sends
 * what the run queued, then it is collected, where no client waits.
 */
export function collectYoungGarbage(beforeCollecting: () => void): void {
  gc ??= exposeGc();
  if (gc === null) return;
  const young = v8!.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (young === undefined || young.space_used_size < young.space_available_size) return;
  beforeCollecting();
  gc({ type: 'minor' });
}

function exposeGc(): MinorGc | null {
  try {
    // Loaded on first use: a pod's start does not need them.
    const require = createRequire(import.meta.url);
    v8 = require('node:v8') as typeof import('node:v8');
    // Only a new context gets `gc`; the flag is set after the start's code cache was written.
    v8.setFlagsFromString('--expose-gc');
    return (require('node:vm') as typeof import('node:vm')).runInNewContext('gc') as MinorGc;
  } catch {
    return null;
  }
}
