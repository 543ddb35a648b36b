const START = Buffer.from('\x1b[200~');
const END = Buffer.from('\x1b[201~');

/** A piece of terminal input: key bytes for the key decoder, or one whole bracketed paste. */
export type InputPiece = { type: 'keys'; bytes: Buffer } | { type: 'paste'; text: string };

/**
 * Splits raw terminal input into key bytes and bracketed pastes (`ESC[200~ … ESC[201~`), in
 * order, whatever the chunking: a marker or a UTF-8 character split across chunks at any byte
 * is reassembled. Inside a paste nothing is interpreted — newlines and escape sequences are
 * content. Bytes that may begin a start marker are held back until the next chunk or
 * {@link flush} (a lone Escape key press looks like the start of a marker).
 */
export class BracketedPasteFilter {
  private pending: Buffer = Buffer.alloc(0);
  private paste: Buffer[] | undefined;

  /** True while inside a paste (its end marker has not arrived yet). */
  get inPaste(): boolean {
    return this.paste !== undefined;
  }

  /** True when bytes are held back outside a paste (waiting for more input or a flush). */
  get holding(): boolean {
    return this.paste === undefined && this.pending.length > 0;
  }

  push(chunk: Buffer | string): InputPiece[] {
    let data = Buffer.concat([this.pending, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
    this.pending = Buffer.alloc(0);
    const out: InputPiece[] = [];
    for (;;) {
      if (this.paste === undefined) {
        const at = data.indexOf(START);
        if (at >= 0) {
          if (at > 0) out.push({ type: 'keys', bytes: data.subarray(0, at) });
          this.paste = [];
          data = data.subarray(at + START.length);
          continue;
        }
        const keep = markerPrefixAtEnd(data, START);
        if (data.length > keep) out.push({ type: 'keys', bytes: data.subarray(0, data.length - keep) });
        this.pending = Buffer.from(data.subarray(data.length - keep));
        return out;
      }
      const at = data.indexOf(END);
      if (at >= 0) {
        this.paste.push(data.subarray(0, at));
        out.push({ type: 'paste', text: Buffer.concat(this.paste).toString('utf8') });
        this.paste = undefined;
        data = data.subarray(at + END.length);
        continue;
      }
      const keep = markerPrefixAtEnd(data, END);
      this.paste.push(Buffer.from(data.subarray(0, data.length - keep)));
      this.pending = Buffer.from(data.subarray(data.length - keep));
      return out;
    }
  }

  /** Releases bytes held back outside a paste (call after a short silence). */
  flush(): InputPiece[] {
    if (this.paste !== undefined || this.pending.length === 0) return [];
    const bytes = this.pending;
    this.pending = Buffer.alloc(0);
    return [{ type: 'keys', bytes }];
  }
}

/** Length of the longest proper prefix of `marker` that `data` ends with. */
function markerPrefixAtEnd(data: Buffer, marker: Buffer): number {
  for (let n = Math.min(marker.length - 1, data.length); n > 0; n--) {
    if (data.subarray(data.length - n).equals(marker.subarray(0, n))) return n;
  }
  return 0;
}
