import crypto from 'node:crypto';

/**
 * The hash chain of a session log, as the original yoi had it: every line carries
 * `hash = SHA-256(prev_hash bytes, or 32 zero bytes on a chain's first line ‖ entry JSON)` and
 * `prev_hash` (hex; `null` on the first line). The two fields open the line, in that order, so
 * the hashed text is exactly the line without them — `{` + everything after `"prev_hash":…,` —
 * and a reader finds it by position, never by re-serialising what it parsed.
 */

const ZERO = Buffer.alloc(32);
const HASH_OPEN = Buffer.from('{"hash":"');
const PREV_OPEN = Buffer.from('","prev_hash":');
const NULL_PREV = Buffer.from('null,');
/** Where the entry text starts after `{"hash":"<64>","prev_hash":null,` or `…:"<64>",`. */
const ENTRY_AT_NULL = HASH_OPEN.length + 64 + PREV_OPEN.length + NULL_PREV.length;
const ENTRY_AT_HASH = HASH_OPEN.length + 64 + PREV_OPEN.length + 66 + 1;

/** Node's one-shot hash (20.12+): one native call instead of a Hash object's four. */
const oneShot = (crypto as { hash?: (algorithm: string, data: Buffer, encoding: 'buffer') => Buffer }).hash;

/** SHA-256 of an entry after `prev` (a raw 32-byte digest, or null for a chain's first line). */
export function entryHash(prev: Buffer | null, entry: string | Buffer): Buffer {
  if (oneShot === undefined)
    return crypto
      .createHash('sha256')
      .update(prev ?? ZERO)
      .update(entry)
      .digest();
  // Every appended entry is hashed (a few per run): the input is laid out once, then hashed.
  const size = typeof entry === 'string' ? Buffer.byteLength(entry) : entry.length;
  const input = Buffer.allocUnsafe(32 + size);
  (prev ?? ZERO).copy(input, 0);
  if (typeof entry === 'string') input.write(entry, 32);
  else entry.copy(input, 32);
  return oneShot('sha256', input, 'buffer');
}

const OPEN_BRACE = Buffer.from('{');

/**
 * The line to write for an entry's JSON (`{...}`) after `prev`, and its hash. The entry must be
 * a non-empty JSON object (every session entry has a `type`).
 */
export function chainLine(entry: string, prev: Buffer | null): { line: string; hash: Buffer } {
  const hash = entryHash(prev, entry);
  const prevText = prev === null ? 'null' : `"${prev.toString('hex')}"`;
  return { line: `{"hash":"${hash.toString('hex')}","prev_hash":${prevText},${entry.slice(1)}`, hash };
}

export interface ParsedChainedLine {
  readonly hash: Buffer;
  readonly prev: Buffer | null;
  /** The hashed text is `{` followed by this: the rest of the line after the chain fields. */
  readonly body: Buffer;
}

/** Splits a line written by `chainLine` (without its newline); undefined when it has no chain fields. */
export function parseChainedLine(line: Buffer): ParsedChainedLine | undefined {
  if (line.length <= ENTRY_AT_NULL || !startsWith(line, HASH_OPEN, 0)) return undefined;
  const hash = hex(line, HASH_OPEN.length);
  const at = HASH_OPEN.length + 64;
  if (!hash || !startsWith(line, PREV_OPEN, at)) return undefined;
  const prevAt = at + PREV_OPEN.length;
  let prev: Buffer | null = null;
  let entryAt = ENTRY_AT_NULL;
  if (!startsWith(line, NULL_PREV, prevAt)) {
    const p =
      line[prevAt] === 0x22 && line[prevAt + 65] === 0x22 && line[prevAt + 66] === 0x2c
        ? hex(line, prevAt + 1)
        : undefined;
    if (!p || line.length <= ENTRY_AT_HASH) return undefined;
    prev = p;
    entryAt = ENTRY_AT_HASH;
  }
  return { hash, prev, body: line.subarray(entryAt) };
}

/** True when the line's hash is the hash of its own entry after its own `prev_hash`. */
export function lineHashMatches(parsed: ParsedChainedLine): boolean {
  // Hashed in pieces: a long line is never copied to be checked.
  const digest = crypto
    .createHash('sha256')
    .update(parsed.prev ?? ZERO)
    .update(OPEN_BRACE)
    .update(parsed.body)
    .digest();
  return digest.equals(parsed.hash);
}

function startsWith(buf: Buffer, prefix: Buffer, at: number): boolean {
  return buf.length >= at + prefix.length && buf.compare(prefix, 0, prefix.length, at, at + prefix.length) === 0;
}

const HEX = /^[0-9a-f]{64}$/;

/** 64 lowercase hex digits at `at` as 32 bytes, or undefined. */
function hex(buf: Buffer, at: number): Buffer | undefined {
  const text = buf.toString('latin1', at, at + 64);
  return HEX.test(text) ? Buffer.from(text, 'hex') : undefined;
}
