/**
 * What a client connection runs over: the Unix socket (`net.Socket` is one as it is), or a
 * plugin's transport such as a WebSocket. The pod's per-connection semantics (framing, hello,
 * the bounded queue and `lagged`, replies) live in `Connection`, above this, so they are the
 * same on every transport.
 *
 * Writes carry whole protocol lines, each ending in `\n` (one buffer may hold several);
 * incoming `data` may split or join lines anywhere — a message-based transport ends each message
 * with `\n` so a message boundary ends a line.
 */
export interface Transport {
  /** Queues bytes (whole lines). */
  write(buf: Buffer): unknown;
  /** Bytes written but not yet sent to the peer (what backpressure is measured by). */
  readonly writableLength: number;
  /** Holds writes until `uncork()` so one event-loop turn leaves in one send. */
  cork(): void;
  uncork(): void;
  /** Stops / restarts delivering `data` (the peer's sending then stalls on its side). */
  pause(): unknown;
  resume(): unknown;
  /** Closes gracefully after what was written is sent. */
  end(): unknown;
  /** Closes now. */
  destroy(): unknown;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  /** `end`: the peer finished sending; `drain`: `writableLength` fell, more can be written; `close`: gone (always last). */
  on(event: 'end' | 'drain' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'close', listener: () => void): unknown;
}
