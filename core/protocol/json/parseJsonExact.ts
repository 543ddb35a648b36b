import { JsonFloat } from './JsonFloat.js';
import { JsonSyntaxError } from './JsonSyntaxError.js';

/** serde_json's default recursion limit: 128 nested arrays/objects. */
export const MAX_JSON_DEPTH = 128;

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * Parses one JSON value with serde_json's semantics, which `JSON.parse` cannot give:
 * duplicate object keys are an error; integers keep full u64/i64 precision (`bigint` above
 * 2^53); numbers written as floats become {@link JsonFloat}; lone surrogate escapes are an
 * error; nesting deeper than 128 is an error. Slow compared to `JSON.parse`: the fast path in
 * `parseJson` only falls back to it when a line needs it.
 */
export function parseJsonExact(text: string): unknown {
  return new ExactParser(text).parseDocument();
}

class ExactParser {
  private pos = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  parseDocument(): unknown {
    this.skipWs();
    if (this.pos >= this.text.length) this.fail('EOF while parsing a value');
    const value = this.parseValue();
    this.skipWs();
    if (this.pos < this.text.length) this.fail('trailing characters');
    return value;
  }

  private fail(reason: string, at = this.pos): never {
    throw new JsonSyntaxError(reason, at + 1);
  }

  private skipWs(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.pos = p;
  }

  private parseValue(): unknown {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: // {
        return this.parseObject();
      case 0x5b: // [
        return this.parseArray();
      case 0x22: // "
        return this.parseString();
      case 0x74: // t
        return this.literal('true', true);
      case 0x66: // f
        return this.literal('false', false);
      case 0x6e: // n
        return this.literal('null', null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
        if (Number.isNaN(c)) this.fail('EOF while parsing a value');
        return this.fail('expected value');
    }
  }

  private literal<T>(word: string, value: T): T {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return value;
    }
    return this.fail('expected value');
  }

  private enter(): void {
    if (++this.depth > MAX_JSON_DEPTH) this.fail('recursion limit exceeded');
  }

  private parseObject(): Record<string, unknown> {
    this.enter();
    this.pos++;
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      this.depth--;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.text.charCodeAt(this.pos) !== 0x22) {
        this.fail(this.pos >= this.text.length ? 'EOF while parsing an object' : 'key must be a string');
      }
      const keyAt = this.pos;
      const key = this.parseString();
      if (seen.has(key)) this.fail(`duplicate field \`${key}\``, keyAt);
      seen.add(key);
      this.skipWs();
      if (this.text.charCodeAt(this.pos) !== 0x3a)
        this.fail(this.pos >= this.text.length ? 'EOF while parsing an object' : 'expected `:`');
      this.pos++;
      this.skipWs();
      if (this.pos >= this.text.length) this.fail('EOF while parsing a value');
      // defineProperty: a key named "__proto__" must stay an ordinary own property.
      Object.defineProperty(out, key, {
        value: this.parseValue(),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.skipWs();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x7d) {
        this.pos++;
        this.depth--;
        return out;
      }
      this.fail(this.pos >= this.text.length ? 'EOF while parsing an object' : 'expected `,` or `}`');
    }
  }

  private parseArray(): unknown[] {
    this.enter();
    this.pos++;
    const out: unknown[] = [];
    this.skipWs();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      this.depth--;
      return out;
    }
    for (;;) {
      this.skipWs();
      if (this.pos >= this.text.length) this.fail('EOF while parsing a list');
      out.push(this.parseValue());
      this.skipWs();
      const c = this.text.charCodeAt(this.pos);
      if (c === 0x2c) {
        this.pos++;
        continue;
      }
      if (c === 0x5d) {
        this.pos++;
        this.depth--;
        return out;
      }
      this.fail(this.pos >= this.text.length ? 'EOF while parsing a list' : 'expected `,` or `]`');
    }
  }

  private parseNumber(): number | bigint | JsonFloat {
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(this.text);
    if (!m) return this.fail('invalid number');
    const literal = m[0];
    this.pos += literal.length;
    if (m[1] === undefined && m[2] === undefined && literal !== '-0') {
      const big = BigInt(literal);
      if (big > U64_MAX || big < I64_MIN) return float(literal);
      if (big > MAX_SAFE || big < -MAX_SAFE) return big;
      return Number(literal);
    }
    return float(literal);
  }

  private parseString(): string {
    const t = this.text;
    const start = ++this.pos;
    let chunkStart = start;
    let out = '';
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c === 0x22) {
        out += t.slice(chunkStart, this.pos);
        this.pos++;
        return out;
      }
      if (Number.isNaN(c)) this.fail('EOF while parsing a string');
      if (c < 0x20) this.fail('control character (\\u0000-\\u001F) found while parsing a string');
      if (c === 0x5c) {
        out += t.slice(chunkStart, this.pos);
        out += this.parseEscape();
        chunkStart = this.pos;
        continue;
      }
      this.pos++;
    }
  }

  private parseEscape(): string {
    const t = this.text;
    const e = t[this.pos + 1];
    this.pos += 2;
    switch (e) {
      case '"':
        return '"';
      case '\\':
        return '\\';
      case '/':
        return '/';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case 'u': {
        const hi = this.hex4();
        if (hi >= 0xdc00 && hi <= 0xdfff) this.fail('lone leading surrogate in hex escape');
        if (hi < 0xd800 || hi > 0xdbff) return String.fromCharCode(hi);
        if (t[this.pos] !== '\\' || t[this.pos + 1] !== 'u') this.fail('unexpected end of hex escape');
        this.pos += 2;
        const lo = this.hex4();
        if (lo < 0xdc00 || lo > 0xdfff) this.fail('lone leading surrogate in hex escape');
        return String.fromCharCode(hi, lo);
      }
      case undefined:
        return this.fail('EOF while parsing a string');
      default:
        return this.fail('invalid escape', this.pos - 1);
    }
  }

  private hex4(): number {
    const s = this.text.slice(this.pos, this.pos + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(s)) this.fail(s.length < 4 ? 'EOF while parsing a string' : 'invalid escape');
    this.pos += 4;
    return parseInt(s, 16);
  }
}

/** A float literal's value; one beyond f64 keeps its text, for errors that quote it. */
function float(literal: string): JsonFloat {
  const value = Number(literal);
  return new JsonFloat(value, Number.isFinite(value) ? undefined : literal);
}
