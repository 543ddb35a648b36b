import { EventEmitter } from 'node:events';
import { describe, expect, it } from '@jest/globals';
import { BatchSlab } from '../../../core/bus/BatchSlab.js';
import { Connection } from '../../../core/server/Connection.js';
import { ownBuffer } from '../../../core/server/ownBuffer.js';
import type { Transport } from '../../../core/server/Transport.js';

/** A transport whose peer does not read: writes pile up in `writableLength` until `drain()`. */
function stalledTransport() {
  const emitter = new EventEmitter();
  const written: Buffer[] = [];
  const t = Object.assign(emitter, {
    writableLength: 1024 * 1024,
    write(buf: Buffer) {
      written.push(buf);
      return false;
    },
    cork: () => undefined,
    uncork: () => undefined,
    pause: () => undefined,
    resume: () => undefined,
    end: () => undefined,
    destroy: () => emitter.emit('close'),
  });
  return {
    transport: t as unknown as Transport,
    written,
    drain() {
      t.writableLength = 0;
      emitter.emit('drain');
    },
  };
}

/** A connection with an 8 MiB queue bound over `transport`. */
function connectionOver(transport: Transport, id: number): Connection {
  return new Connection(transport, {
    id,
    maxLineBytes: 1024,
    queueLimitBytes: 8 * 1024 * 1024,
    onLine: () => undefined,
    onLineFailure: () => undefined,
    onLineError: () => undefined,
    onClose: () => undefined,
    renderLag: () => Buffer.from('lag\n'),
  });
}

describe("a connection's queued lines", () => {
  it('own their memory: a client that does not read pins no slab of the bus, whatever the line', () => {
    const peer = stalledTransport();
    const conn = connectionOver(peer.transport, 1);
    const slab = new BatchSlab();
    const lines = ['{"a":1}\n', '{"b":2}\n', '{"c":3}\n'];
    const sent = lines.map((l) => slab.encode(l));
    expect(sent[1].buffer).toBe(sent[0].buffer); // slices of one slab
    conn.send(sent[0], true, 1, 1); // a droppable batch
    conn.send(sent[1], false, 2, 2); // a never-dropped broadcast (status, run_end)
    conn.sendReply(sent[2]); // a reply
    expect(peer.written).toHaveLength(0);
    peer.drain();
    expect(peer.written.map((b) => b.toString())).toEqual(lines);
    for (const buf of peer.written) {
      expect(buf.byteOffset).toBe(0);
      expect(buf.byteLength).toBe(buf.buffer.byteLength);
    }
  });
});

describe('a batch queued by many connections', () => {
  it('is copied once: every stalled client holds the same copy, not one of its own', () => {
    const peers = [stalledTransport(), stalledTransport(), stalledTransport()];
    const conns = peers.map((peer, i) => connectionOver(peer.transport, i + 1));
    const slab = new BatchSlab();
    slab.encode('{"first":0}\n');
    const batch = slab.encode('{"event":"text_delta","seq":1,"data":{"text":"x"}}\n');
    for (const conn of conns) conn.send(batch, true, 1, 1);
    peers.forEach((p) => p.drain());
    const got = peers.map((p) => p.written[0]);
    expect(got[0].toString()).toBe(batch.toString());
    expect(got[0].buffer).not.toBe(batch.buffer);
    expect(got[1]).toBe(got[0]);
    expect(got[2]).toBe(got[0]);
  });
});

describe('ownBuffer', () => {
  it('copies a slice out of its slab, so holding it keeps only its own bytes', () => {
    const slice = new BatchSlab().encode('queued line\n');
    const own = ownBuffer(slice);
    expect(own).not.toBe(slice);
    expect(own.byteLength).toBe(own.buffer.byteLength);
    expect(own.toString()).toBe('queued line\n');
  });

  it('returns a buffer that owns its memory as it is', () => {
    const buf = Buffer.allocUnsafeSlow(16).fill(1);
    expect(ownBuffer(buf)).toBe(buf);
  });
});
