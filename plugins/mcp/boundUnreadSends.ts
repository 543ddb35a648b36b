import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Most a stdio server may leave unread of what the pod writes to it: as much as the pod reads of one message. */
export const MAX_UNREAD_BYTES = 10 * 1024 * 1024;
/**
 * Most messages it may leave unread: each holds the SDK's state of its request until written
 * (~1 KB for an answer of ~80 bytes), so small answers reach this bound long before the other.
 */
export const MAX_UNREAD_MESSAGES = 10_000;

/** The error a transport reports once a server has left more than either bound unread. */
export const UNREAD_ERROR = /the server stopped reading: .* waiting for it/;

interface Waiting {
  readonly send: () => Promise<void>;
  readonly size: number;
}

/**
 * Bounds what waits in a stdio transport for its server to read. The SDK's `send` writes to the
 * server's stdin and settles once the pipe takes the bytes; a server that stops reading (while
 * it goes on sending requests the client answers, or notifications the client acts on) would
 * otherwise keep every write in the pod's memory. Sends go to the SDK one at a time, in order,
 * each once the one before has settled: a full pipe then holds one write and one `drain`
 * listener (the SDK adds one per waiting write, and Node warned of a leak past ten), and the
 * rest wait here, where they are counted. Past the bound a send fails, and the transport's
 * `onerror` hears it once, so the connection is closed (and the server restarted) like one
 * that crashed. Sizes are measured only while the pipe is backed up.
 */
export function boundUnreadSends(
  transport: Transport,
  maxBytes = MAX_UNREAD_BYTES,
  maxMessages = MAX_UNREAD_MESSAGES,
): void {
  const send = transport.send.bind(transport);
  const waiting: Waiting[] = [];
  let writing = false;
  let bytes = 0;
  let reported = false;
  const next = () => {
    const item = waiting.shift();
    writing = item !== undefined;
    if (item) {
      bytes -= item.size;
      item.send();
    }
  };
  const write = (run: () => Promise<void>) => {
    const sent = run();
    sent.then(next, next);
    return sent;
  };
  transport.send = (message, options) => {
    if (!writing) {
      writing = true;
      return write(() => send(message, options));
    }
    const size = Buffer.byteLength(JSON.stringify(message)) + 1;
    // The write in the pipe counts as one of the messages waiting.
    if (bytes + size > maxBytes || waiting.length + 1 >= maxMessages) {
      const error = new Error(
        `the server stopped reading: ${waiting.length + 1} messages (${(bytes / 1048576).toFixed(1)} MiB) waiting for it`,
      );
      if (!reported) {
        reported = true;
        transport.onerror?.(error);
      }
      return Promise.reject(error);
    }
    bytes += size;
    return new Promise<void>((resolve, reject) => {
      waiting.push({ size, send: () => write(() => send(message, options)).then(resolve, reject) });
    });
  };
}
