import type { ClientInfo, PodInfo } from '../hooks/HookTypes.js';
import type { Segment } from '../protocol/index.js';

/** Passed to every `resolveSegment` tap. Fields are added over time; never removed. */
export interface ResolveContext extends PodInfo {
  /** Aborted when the run is cancelled or paused: stop reading and return. */
  readonly signal: AbortSignal;
  /** Position of the segment in the run's input. */
  readonly index: number;
  /** The run's whole input, as sent (a resolver may read its neighbours, e.g. arguments after a `/slug`). */
  readonly input: readonly Segment[];
  /** The client that sent the run, when one did. */
  readonly client?: ClientInfo;
}
