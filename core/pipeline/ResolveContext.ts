import type { PodServices } from '../hooks/PodServices.js';
import type { Segment } from '../protocol/index.js';

/** Passed to every `resolveSegment` tap. Fields are added over time; never removed. */
export interface ResolveContext {
  /** Aborted when the run is cancelled or paused: stop reading and return. */
  readonly signal: AbortSignal;
  readonly podName: string;
  /** The pod's working directory (canonical). `@path` is relative to it. */
  readonly cwd: string;
  /** The directory of the config file, or the cwd without one. */
  readonly projectDir: string;
  /** Position of the segment in the run's input. */
  readonly index: number;
  /** The run's whole input (`input[index]` is this segment): a resolver may read what follows it. */
  readonly input?: readonly Segment[];
  /** Services provided by the pod (scope checks, alerts); see PodServices. */
  readonly services: PodServices;
}
