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

/**
 * Bounds what waits in a stdio transport for its server to read. The SDK's `send` writes to the
 * server's stdin and settles once the pipe takes the bytes; a server that stops reading (while
 * it goes on sending requests the client answers, or notifications the client acts on) would
 * otherwise keep every write in the pod's memory. Past the bound a send fails, and the
 * transport's `onerror` hears it once, so the connection is closed (and the server restarted)
 * like one that crashed. Sizes are measured only while the pipe is backed up.
 */
export function boundUnreadSends(
  transport: Transport,
  maxBytes = MAX_UNREAD_BYTES,
  maxMessages = MAX_UNREAD_MESSAGES,
): void {
  const send = transport.send.bind(transport);
  let pending = 0;
  let bytes = 0;
  let reported = false;
  transport.send = (message, options) => {
    let size = 0;
    if (pending > 0) {
      size = Buffer.byteLength(JSON.stringify(message)) + 1;
      if (bytes + size > maxBytes || pending >= maxMessages) {
        const error = new Error(
          `the server stopped reading: ${pending} messages (${(bytes / 1048576).toFixed(1)} MiB) waiting for it`,
        );
        if (!reported) {
          reported = true;
          transport.onerror?.(error);
        }
        return Promise.reject(error);
      }
    }
    pending++;
    bytes += size;
    const settle = () => {
      pending--;
      bytes -= size;
    };
    const sent = send(message, options);
    sent.then(settle, settle);
    return sent;
  };
}
