/** The line that replaces the middle of an output that did not fit. */
export const cutMarker = (dropped: number) => `\n\n[... ${dropped} bytes of output dropped ...]\n\n`;

/** What a capture kept: the text the model reads and how much of the output it stands for. */
export interface CapturedOutput {
  readonly text: string;
  /** Bytes the command wrote in all. */
  readonly totalBytes: number;
  /** Bytes left out of `text` (0 when everything fits). */
  readonly droppedBytes: number;
}

/**
 * Keeps the head and the tail of a byte stream of any length in bounded memory: the first
 * half of `maxBytes` as it arrives, and the most recent bytes in a list of chunks trimmed from
 * the front (at most `maxBytes` plus one chunk are held). `finish()` joins them with a marker
 * saying how many bytes were dropped; the result, marker included, is at most `maxBytes` bytes
 * and never splits a UTF-8 character.
 */
export class OutputCapture {
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #head: Buffer[] = [];
  #headLen = 0;
  readonly #tail: Buffer[] = [];
  #tailLen = 0;
  #total = 0;

  constructor(readonly maxBytes: number) {
    this.#headCap = Math.floor(maxBytes / 2);
    this.#tailCap = maxBytes - this.#headCap;
  }

  get totalBytes(): number {
    return this.#total;
  }

  write(chunk: Buffer): void {
    this.#total += chunk.length;
    let rest = chunk;
    if (this.#headLen < this.#headCap) {
      const take = Math.min(this.#headCap - this.#headLen, rest.length);
      this.#head.push(rest.subarray(0, take));
      this.#headLen += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest);
    this.#tailLen += rest.length;
    while (this.#tail.length > 1 && this.#tailLen - this.#tail[0].length >= this.#tailCap) {
      this.#tailLen -= this.#tail.shift()!.length;
    }
  }

  finish(): CapturedOutput {
    const head = Buffer.concat(this.#head, this.#headLen);
    const tailAll = Buffer.concat(this.#tail, this.#tailLen);
    const tail = tailAll.subarray(Math.max(0, tailAll.length - this.#tailCap));
    if (this.#total <= this.maxBytes) {
      return { text: Buffer.concat([head, tail]).toString('utf8'), totalBytes: this.#total, droppedBytes: 0 };
    }
    // Room for the marker (its widest form) comes out of both halves; a limit smaller than the
    // marker keeps the marker alone.
    const reserve = Buffer.byteLength(cutMarker(this.#total));
    const fits = reserve < this.maxBytes;
    let headEnd = fits ? Math.max(0, head.length - Math.ceil(reserve / 2)) : 0;
    let tailStart = fits ? Math.min(tail.length, Math.floor(reserve / 2)) : tail.length;
    while (headEnd > 0 && isContinuation(head[headEnd])) headEnd--;
    while (tailStart < tail.length && isContinuation(tail[tailStart])) tailStart++;
    const kept = headEnd + (tail.length - tailStart);
    const dropped = this.#total - kept;
    const text =
      head.subarray(0, headEnd).toString('utf8') + cutMarker(dropped) + tail.subarray(tailStart).toString('utf8');
    return { text, totalBytes: this.#total, droppedBytes: dropped };
  }
}

/** A UTF-8 continuation byte (`10xxxxxx`): not where a character starts. */
function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}
