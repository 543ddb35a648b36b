import { Transform, type TransformCallback } from 'node:stream';

/**
 * Caps the lines an editor sends: a line longer than `maxBytes` is dropped as it streams in
 * (never buffered) and replaced by a short line that is not JSON, which the SDK answers with a
 * JSON-RPC parse error — where the SDK itself would close the connection. Memory stays bounded
 * by the longest allowed line, which the SDK holds.
 */
export class LineLimit extends Transform {
  private length = 0;
  private dropping = false;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      const piece = end - start;
      if (!this.dropping && this.length + piece > this.maxBytes) this.dropping = true;
      if (!this.dropping) this.push(chunk.subarray(start, nl === -1 ? end : end + 1));
      this.length += piece;
      if (nl === -1) break;
      if (this.dropping) this.push(`line of ${this.length} bytes dropped: longer than ${this.maxBytes}\n`);
      this.length = 0;
      this.dropping = false;
      start = nl + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.dropping) this.push(`line of ${this.length} bytes dropped: longer than ${this.maxBytes}\n`);
    done();
  }
}
