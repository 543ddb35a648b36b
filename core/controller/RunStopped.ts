/** Why a run was stopped: a `pause`, a `cancel`, or the pod stopping (`shutdown`). */
export type RunStop = 'pause' | 'cancel' | 'shutdown';

const SAID: Record<RunStop, string> = {
  pause: 'the run was paused',
  cancel: 'the run was cancelled',
  shutdown: 'the pod is stopping',
};

/**
 * The abort reason of a stopped run's signal. Named `AbortError`, as fetch and streams expect of
 * an abort; `stop` tells plugins waiting inside a hook (a permission ask) what happened.
 */
export class RunStopped extends Error {
  override readonly name = 'AbortError';

  constructor(readonly stop: RunStop) {
    super(SAID[stop]);
  }
}

/** Why a run's signal (as hooks receive it) aborted; undefined while it has not, or when it aborted for another reason. */
export function runStopOf(signal: AbortSignal): RunStop | undefined {
  if (!signal.aborted) return undefined;
  // Duck-typed: a plugin loaded through another copy of yoi sees another class.
  const reason = signal.reason as { name?: unknown; stop?: unknown } | undefined;
  return reason?.name === 'AbortError' &&
    (reason.stop === 'pause' || reason.stop === 'cancel' || reason.stop === 'shutdown')
    ? reason.stop
    : undefined;
}
