/**
 * The idle timeout of one streamed request (`model.timeoutMs`). It runs while the server owes
 * an answer — from each attempt's fetch until its response, then between chunks — and stands
 * still while the SDK waits before a retry: that wait honours `retry-after` (up to 60 s) and is
 * the pod's own choice, not the server's silence. (Counting it made a 429 asking for a longer
 * wait than `timeoutMs` fail as "no response".)
 */
export class IdleClock {
  private timer: NodeJS.Timeout | undefined;
  private fired = false;

  constructor(
    private readonly ms: number,
    private readonly onTimeout: () => void,
  ) {}

  get timedOut(): boolean {
    return this.fired;
  }

  /** Starts counting silence from now. */
  arm(): void {
    if (this.fired) return;
    if (this.timer) {
      this.timer.refresh();
      return;
    }
    this.timer = setTimeout(() => {
      this.fired = true;
      this.timer = undefined;
      this.onTimeout();
    }, this.ms);
  }

  /** Something arrived: the count starts again (a no-op while the clock stands still). */
  refresh(): void {
    this.timer?.refresh();
  }

  /** Stops counting (the SDK is between attempts, or the request is over). */
  disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * A `fetch` for the SDK that arms the clock for each attempt and stops it once the attempt
   * failed: a connection error, or an error answer whose body has been read (the SDK then backs
   * off and calls again, or gives up at once).
   */
  wrap(inner: typeof globalThis.fetch): typeof globalThis.fetch {
    return async (input, init) => {
      this.arm();
      let response: Response;
      try {
        response = await inner(input, init);
      } catch (e) {
        this.disarm();
        throw e;
      }
      if (response.ok) return response;
      if (!response.body) {
        this.disarm();
        return response;
      }
      const body = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({ flush: () => this.disarm() }),
      );
      return new Response(body, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    };
  }
}
