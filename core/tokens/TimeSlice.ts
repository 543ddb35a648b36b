import { AbortedError } from '../provider/providerErrors.js';

/** CPU time a long computation may take on the event loop before it lets other work run. */
export const SLICE_MS = 10;

/**
 * Cooperative scheduling for CPU-bound loops (token counting): `pause()` returns a promise that
 * yields to the event loop (`setImmediate`, so sockets, timers and signals get their turn) once
 * `sliceMs` have passed since the last yield, else nothing (no await per step). It throws once
 * `signal` is aborted, so a stopped run stops counting.
 */
export class TimeSlice {
  private last = performance.now();

  constructor(
    private readonly signal?: AbortSignal,
    private readonly sliceMs = SLICE_MS,
  ) {}

  pause(): Promise<void> | undefined {
    if (this.signal?.aborted) throw new AbortedError('aborted');
    if (performance.now() - this.last < this.sliceMs) return undefined;
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.last = performance.now();
      if (this.signal?.aborted) throw new AbortedError('aborted');
    });
  }
}
