/** The yoi wire protocol: v1 (byte-compatible with Rust yoi) plus the negotiated v2 extensions. */
export * from './json/index.js';
export * from './schemas/primitives.js';
export * from './schemas/enums.js';
export * from './schemas/structs.js';
export * from './schemas/Segment.js';
export * from './schemas/PodEvent.js';
export * from './schemas/Method.js';
export * from './schemas/Event.js';
export {
  decodeMethod,
  decodeMethodLine,
  decodeEvent,
  decodeEventLine,
  decodeWith,
  oneLineError,
  parseLine,
  type Decoded,
} from './decode.js';
export { encodeMethod, encodeEvent, encodeWith, ProtocolEncodeError } from './encode.js';
export { downgradeToV1 } from './downgradeToV1.js';
export {
  LineReader,
  DEFAULT_MAX_LINE_BYTES,
  formatBytes,
  type ByteBudget,
  type LineError,
  type LineReaderOptions,
} from './LineReader.js';
export { formatIssues, formatPath } from './formatIssues.js';

/** The protocol version this build speaks after `hello`. */
export const PROTOCOL_VERSION = 2;
