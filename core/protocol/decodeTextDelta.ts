import type { EventOf } from './schemas/Event.js';

const HEAD = '{"event":"text_delta",';
const DATA = '"data":{"text":';
const SEQ = /^"seq":(0|[1-9]\d{0,14}),/;

/**
 * The hottest line a client reads (one per streamed token) in exactly the form the encoder
 * writes it, `{"event":"text_delta"[,"seq":N],"data":{"text":"…"}}`, decoded without the JSON
 * scan and the schema pass. `undefined` for anything else — another shape, key order, extra
 * keys, a string `JSON.parse` rejects, a `\uD…` escape (maybe a lone surrogate, which only the
 * exact parser judges) — and the full decoder takes the line, so every malformed line gets the
 * same error as before. A property test keeps both paths equal.
 */
export function decodeTextDeltaLine(line: string): EventOf<'text_delta'> | undefined {
  if (!line.startsWith(HEAD) || !line.endsWith('"}}')) return undefined;
  let at = HEAD.length;
  let seq: number | undefined;
  if (line.startsWith('"seq":', at)) {
    const m = SEQ.exec(line.slice(at, at + 24));
    if (!m) return undefined;
    seq = Number(m[1]);
    at += m[0].length;
  }
  if (!line.startsWith(DATA, at)) return undefined;
  const literal = line.slice(at + DATA.length, -2);
  if (literal.charCodeAt(0) !== 0x22 || /\\u[dD]/.test(literal)) return undefined;
  let text: unknown;
  try {
    text = JSON.parse(literal);
  } catch {
    return undefined;
  }
  if (typeof text !== 'string') return undefined;
  return seq === undefined ? { event: 'text_delta', data: { text } } : { event: 'text_delta', seq, data: { text } };
}
