import type { Readable, Writable } from 'node:stream';
import { RequestError, type AnyMessage, type Stream } from '@agentclientprotocol/sdk';

/**
 * The editor's stdio as an ACP stream of newline-delimited JSON, read and written on Node's own
 * streams. The SDK's `ndJsonStream` over `Readable.toWeb`/`Writable.toWeb` passes every message
 * through three web streams each way, ~0.3 ms of a prompt's first chunk (bench/acp).
 *
 * A line longer than `maxLineBytes` is dropped as it streams in (never buffered) and answered
 * with a JSON-RPC parse error, like any line that is not JSON, and reading goes on — where the
 * SDK itself would close the connection. Memory stays bounded by the longest allowed line, and
 * the answers to bad lines by one read of stdin (reading waits for the editor to read them).
 */
export function stdioStream(input: Readable, output: Writable, maxLineBytes: number): Stream {
  let failed: Error | undefined;
  const drains: { resolve: () => void; reject: (e: Error) => void }[] = [];
  output.on('drain', () => drains.splice(0).forEach((d) => d.resolve()));
  output.on('error', (e: Error) => {
    failed = e;
    drains.splice(0).forEach((d) => d.reject(e));
  });
  const send = (message: unknown): Promise<void> | undefined => {
    if (failed) return Promise.reject(failed);
    if (output.write(`${JSON.stringify(message)}\n`)) return undefined;
    return new Promise((resolve, reject) => drains.push({ resolve, reject }));
  };

  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let dropping = false;
  /** Set while the editor has not read our answers to its bad lines: its input waits meanwhile. */
  let unanswered = false;
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      // An editor that keeps sending bad lines without reading stdout is not read either (the
      // answers would pile up in memory): reading resumes once stdout drained.
      const refuse = (error: RequestError) => {
        const written = send({ jsonrpc: '2.0', id: null, error: error.toErrorResponse() });
        if (!written) return;
        unanswered = true;
        input.pause();
        written.then(
          () => {
            unanswered = false;
            if ((controller.desiredSize ?? 1) > 0) input.resume();
          },
          () => undefined,
        );
      };
      const deliver = (text: string) => {
        const line = text.trim();
        if (line === '') return;
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          return refuse(RequestError.parseError());
        }
        if (typeof message !== 'object' || message === null) return refuse(RequestError.invalidRequest(message));
        // The SDK takes no batches and would close the connection on one.
        if (Array.isArray(message)) return refuse(RequestError.invalidRequest(undefined, 'batches are not supported'));
        controller.enqueue(message as AnyMessage);
        if ((controller.desiredSize ?? 1) <= 0) input.pause();
      };
      const endLine = (tail: Buffer) => {
        if (dropping) refuse(RequestError.parseError(undefined, `line longer than ${maxLineBytes} bytes dropped`));
        else deliver(pending.length === 0 ? tail.toString() : Buffer.concat([...pending, tail]).toString());
        pending = [];
        pendingBytes = 0;
        dropping = false;
      };
      input.on('data', (chunk: Buffer) => {
        for (let start = 0; start < chunk.length;) {
          const nl = chunk.indexOf(0x0a, start);
          const end = nl === -1 ? chunk.length : nl;
          if (!dropping && pendingBytes + (end - start) > maxLineBytes) {
            dropping = true;
            pending = [];
          }
          if (nl === -1) {
            if (!dropping) pending.push(chunk.subarray(start));
            pendingBytes += end - start;
            break;
          }
          endLine(chunk.subarray(start, end));
          start = nl + 1;
        }
      });
      input.once('end', () => {
        if (pendingBytes > 0) endLine(Buffer.alloc(0));
        controller.close();
      });
      input.once('error', (e) => controller.error(e));
    },
    pull() {
      if (!unanswered) input.resume();
    },
    cancel() {
      input.destroy();
    },
  });
  const writable = new WritableStream<AnyMessage>({ write: (message) => send(message) });
  return { readable, writable };
}
