import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Transport } from '../core/server/Transport.js';

const NEWLINE = Buffer.from('\n');

/**
 * `ws`'s own frame builder (exported by the package, not typed by @types/ws), required at the
 * first frame: a transport only exists once `ws` made its WebSocket, and every pod loads this
 * module (through the public API) whether or not it listens on WebSockets.
 */
type FrameBuilder = { frame(data: Buffer, options: FrameOptions): Buffer[] };
let sender: FrameBuilder | undefined;
const Sender = (): FrameBuilder =>
  (sender ??= (createRequire(import.meta.url)('ws') as { Sender: FrameBuilder }).Sender);
interface FrameOptions {
  fin: boolean;
  opcode: number;
  mask: boolean;
  readOnly: boolean;
  rsv1: boolean;
}
const TEXT: FrameOptions = { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false };

/**
 * The frames of one buffer of lines, made once: the bus hands the same buffer (a batch of
 * broadcasts) to every client, and a server's frames are unmasked, so every WebSocket client
 * can write the same bytes — as socket clients share the batch itself.
 */
const framed = new WeakMap<Buffer, Buffer>();

function frames(buf: Buffer): Buffer {
  const known = framed.get(buf);
  if (known) return known;
  const parts: Buffer[] = [];
  let start = 0;
  while (start < buf.length) {
    let nl = buf.indexOf(0x0a, start);
    if (nl < 0) nl = buf.length;
    if (nl > start) parts.push(...Sender().frame(buf.subarray(start, nl), TEXT));
    start = nl + 1;
  }
  const out = Buffer.concat(parts);
  framed.set(buf, out);
  return out;
}

/**
 * A `ws` WebSocket as a Transport: one protocol line per text frame, both ways. Outgoing
 * buffers are split at `\n` into one frame each (the newline is not sent). Each incoming frame
 * is handed on followed by `\n`, so a frame always ends a line; a frame holding several lines
 * gives those lines, in order, and a binary frame is read like a text frame (the bytes are the
 * same UTF-8 NDJSON; invalid UTF-8 gets the same per-line error as on the socket). Backpressure
 * is the WebSocket's `bufferedAmount` with the `drain` of the TCP/TLS socket under it, so a
 * client behind a stalled TCP window fills the same bounded queue as a socket client.
 */
export class WebSocketTransport extends EventEmitter implements Transport {
  constructor(
    private readonly ws: WebSocket,
    /** The socket the WebSocket runs on (the server has it from the upgrade): its `drain` and `cork`. */
    private readonly raw?: Duplex,
  ) {
    super();
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      this.emit('data', Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data));
      this.emit('data', NEWLINE);
    });
    ws.on('error', (error: Error) => this.emit('error', error));
    ws.on('close', () => {
      this.emit('end');
      this.emit('close');
    });
    raw?.on('drain', () => this.emit('drain'));
  }

  /**
   * Sends each line of `data` as one text frame; nothing once the WebSocket is closing. On the
   * server the frames (made by `ws`) go to the socket in one write: the pod never compresses or
   * sends a Blob, so `ws`'s sender never holds frames back that these could overtake.
   */
  write(data: Buffer | string): boolean {
    if (this.ws.readyState !== this.ws.OPEN) return false;
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    if (this.raw) return this.raw.write(frames(buf));
    let start = 0;
    while (start < buf.length) {
      let nl = buf.indexOf(0x0a, start);
      if (nl < 0) nl = buf.length;
      if (nl > start) this.ws.send(buf.subarray(start, nl), { binary: false });
      start = nl + 1;
    }
    return true;
  }

  get writableLength(): number {
    return this.ws.bufferedAmount;
  }

  cork(): void {
    this.raw?.cork();
  }

  uncork(): void {
    this.raw?.uncork();
  }

  pause(): void {
    this.ws.pause();
  }

  resume(): void {
    this.ws.resume();
  }

  end(): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(1000);
  }

  destroy(): void {
    this.ws.terminate();
  }
}
