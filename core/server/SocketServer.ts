import fs from 'node:fs';
import net from 'node:net';
import type { EventBus } from '../bus/EventBus.js';
import { Connection } from './Connection.js';
import { requestRefused } from './backlogErrors.js';
import { InputBudget } from './InputBudget.js';
import { requestIdInHead } from '../protocol/requestIdInHead.js';
import type { Transport } from './Transport.js';
import {
  decodeMethodLine,
  downgradeToV1,
  encodeEvent,
  oneLineError,
  type Event,
  type Method,
} from '../protocol/index.js';

export interface SocketServerOptions {
  socketPath: string;
  bus: EventBus;
  maxLineBytes: number;
  queueLimitBytes: number;
  /** Unfinished lines of all connections together (`limits.inputBufferBytes`). */
  inputBufferBytes?: number;
  /** A decoded method from a client. Lines of one connection are handled in order. */
  onMethod: (conn: Connection, method: Method) => void | Promise<void>;
  /**
   * A line that is not a protocol method: handles it (a plugin's method) and returns the work,
   * or returns undefined to have it rejected as a bad line.
   */
  onOtherLine?: (conn: Connection, line: string) => Promise<void> | undefined;
  /**
   * A request's handling failed where nothing else caught it (its client is answered
   * `internal`): the pod says it to every client, as it does a failing tap of an isolated hook.
   */
  onRequestFailed?: (message: string) => void;
}

/**
 * Listens on the pod's Unix socket (mode 0600). Each connection gets a dedicated reader and a
 * bounded writer (see Connection). A bad line — malformed, unknown method, over the size limit,
 * invalid UTF-8 — gets one `error` on that connection only; the connection stays open.
 */
export class SocketServer {
  private readonly server: net.Server;
  private nextId = 1;
  /** Shared by every connection: input buffered for all clients is bounded as a whole. */
  readonly inputBudget: InputBudget;

  constructor(private readonly opts: SocketServerOptions) {
    this.server = net.createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
    this.inputBudget = new InputBudget(opts.inputBufferBytes ?? Infinity);
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (err: Error) => reject(err);
      this.server.once('error', onError);
      // umask-independent: the socket is private to its owner.
      const previous = process.umask(0o177);
      this.server.listen(this.opts.socketPath, () => {
        process.umask(previous);
        this.server.off('error', onError);
        fs.chmodSync(this.opts.socketPath, 0o600);
        resolve();
      });
      process.umask(previous);
    });
  }

  /** Stops accepting, lets every connection flush (bounded by `graceMs`), then closes them. */
  async close(graceMs = 1000): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    await Promise.all([...this.opts.bus.clients].map((c) => c.end(graceMs)));
    await closed;
  }

  /** Serves one client over `socket` (the Unix socket's, or another transport's: see Transport). */
  accept(socket: Transport): void {
    const { bus } = this.opts;
    const conn = new Connection(socket, {
      id: this.nextId++,
      maxLineBytes: this.opts.maxLineBytes,
      queueLimitBytes: this.opts.queueLimitBytes,
      inputBudget: this.inputBudget,
      onLine: (c, line) => {
        // A client that does not read its replies gets no more work done for it, only this.
        if (!c.admits()) {
          bus.reply(c, requestRefused(c, requestIdOf(line)));
          return;
        }
        const decoded = decodeMethodLine(line);
        if (!decoded.ok) {
          const handled = this.opts.onOtherLine?.(c, line);
          if (handled) return handled;
          bus.reply(c, errorAnswer('invalid_request', `invalid method: ${decoded.error}`, requestIdOf(line)));
          return;
        }
        return this.opts.onMethod(c, decoded.value);
      },
      onLineFailure: (c, line, error) => {
        const message = oneLineError(`the request failed: ${error instanceof Error ? error.message : String(error)}`);
        bus.reply(c, errorAnswer('internal', message, requestIdOf(line)));
        this.opts.onRequestFailed?.(message);
      },
      onLineError: (c, err) =>
        bus.reply(
          c,
          errorAnswer(
            'invalid_request',
            err.kind === 'input_budget' ? err.message : `invalid method: ${err.message}`,
            err.kind === 'invalid_utf8' ? undefined : requestIdInHead(err.head),
          ),
        ),
      onClose: (c) => bus.detach(c),
      renderLag: (c, from, to, count) => {
        const lagged: Event = { event: 'lagged', data: { from_seq: from, to_seq: to } };
        if (c.version === 2) return Buffer.from(`${encodeEvent(lagged)}\n`);
        const [alert] = downgradeToV1(lagged);
        if (alert.event === 'alert')
          alert.data.message = `${count} event(s) were not delivered because this client read too slowly; send get_history to resync`;
        return Buffer.from(`${encodeEvent(alert)}\n`);
      },
    });
    bus.attach(conn);
  }
}

/** An `error` answer to one line: `invalid_request` for a bad line, `internal` for a request whose handling failed. */
function errorAnswer(code: 'invalid_request' | 'internal', message: string, requestId?: string): Event {
  return { event: 'error', data: { code, message }, ...(requestId ? { request_id: requestId } : {}) };
}

/** Best effort: echo the request_id of a line that parsed as JSON but was not a valid method. */
function requestIdOf(line: string): string | undefined {
  if (!line.includes('"request_id"')) return undefined;
  try {
    const v = JSON.parse(line) as { request_id?: unknown };
    return typeof v?.request_id === 'string' ? v.request_id : undefined;
  } catch {
    return undefined;
  }
}
