import type { ByteBudget, LineError } from '../protocol/index.js';
import type { Connection } from './Connection.js';

/** Events a slow client lost: replaced in its queue by one `lagged` (v2) or alert (v1) line. */
export interface LagMarker {
  lag: true;
  from: number;
  to: number;
  count: number;
}

/** Encoded lines: one reply, or a batch of consecutive broadcasts `from..to`. */
export interface QueuedLine {
  lag?: false;
  buf: Buffer;
  droppable: boolean;
  from?: number;
  to?: number;
}

export interface ConnectionOptions {
  id: number;
  maxLineBytes: number;
  /** Bound of the outbound queue in bytes (ARCHITECTURE §4.3, default 8 MiB). */
  queueLimitBytes: number;
  /** The pod's budget for buffered input, shared by every connection (`limits.inputBufferBytes`). */
  inputBudget?: ByteBudget;
  onLine: (conn: Connection, line: string) => void | Promise<void>;
  /**
   * `onLine` threw or rejected (a plugin's tap failing where nothing else catches it): answer
   * the request. The connection goes on with its next lines either way.
   */
  onLineFailure: (conn: Connection, line: string, error: unknown) => void;
  onLineError: (conn: Connection, error: LineError) => void;
  onClose: (conn: Connection) => void;
  /** Renders the line that tells this client what it lost (depends on its protocol version). */
  renderLag: (conn: Connection, from: number, to: number, count: number) => Buffer;
}
