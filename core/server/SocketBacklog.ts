import type { Transport } from './Transport.js';
import { emptyArray } from '../util/emptyArray.js';

/**
 * What a socket still holds of the lines written to it, by kind. Node only tells how many bytes
 * are unsent (`writableLength`); they are the last ones written, so keeping the recent writes in
 * order tells how many of them cannot be dropped (replies, never-dropped events) — a large
 * broadcast the client is still reading does not count against its requests. The list stays
 * short: lines go to the socket only while it holds less than 64 KiB.
 */
export class SocketBacklog {
  private writes: { bytes: number; droppable: boolean }[] = emptyArray();
  private total = 0;
  /** The part of `total` that is never dropped. */
  private fixed = 0;

  constructor(private readonly socket: Transport) {}

  write(buf: Buffer, droppable: boolean): void {
    this.socket.write(buf);
    this.writes.push({ bytes: buf.length, droppable });
    this.total += buf.length;
    if (!droppable) this.fixed += buf.length;
    if (this.writes.length > 64) this.trim();
  }

  /** Unsent bytes of lines that are never dropped. */
  get undroppableBytes(): number {
    const sent = this.trim();
    return this.writes.length > 0 && !this.writes[0].droppable ? this.fixed - sent : this.fixed;
  }

  /** Forgets the lines the socket has sent; returns how much of the first one left was sent. */
  private trim(): number {
    let sent = Math.max(0, this.total - this.socket.writableLength);
    let i = 0;
    while (i < this.writes.length && this.writes[i].bytes <= sent) {
      const w = this.writes[i++];
      sent -= w.bytes;
      this.total -= w.bytes;
      if (!w.droppable) this.fixed -= w.bytes;
    }
    if (i > 0) this.writes = this.writes.slice(i);
    return sent;
  }

  clear(): void {
    this.writes = emptyArray();
    this.total = 0;
    this.fixed = 0;
  }
}
