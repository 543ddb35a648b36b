import { randomBytes } from 'node:crypto';
import { utf8Boundary } from '../../resolvers/shared/utf8Boundary.js';

/** Every temp file of an atomic write ends with this; Glob, Grep and `@` listings never show them. */
export const TEMP_SUFFIX = '.yoi-tmp';
/** Glob ignore pattern for those temp files (hidden files ending in {@link TEMP_SUFFIX}). */
export const TEMP_FILES_GLOB = `**/.*${TEMP_SUFFIX}`;
/** Most bytes of the target's name kept in a temp name (names are limited to 255 bytes). */
const MAX_TARGET_BYTES = 128;
const TEMP_NAME = /^\..*\.(\d+)\.[0-9a-f]{12}\.yoi-tmp$/s;

/**
 * The temp file name an atomic write of `target` uses in the target's directory:
 * `.<target>.<writer pid>.<12 hex>.yoi-tmp` — hidden, recognisable, and naming its writer, so
 * a stale one (its writer was killed) can be told from one being written.
 */
export function tempFileName(target: string, pid: number = process.pid): string {
  const bytes = Buffer.from(target);
  const kept =
    bytes.length > MAX_TARGET_BYTES ? bytes.subarray(0, utf8Boundary(bytes, MAX_TARGET_BYTES)).toString() : target;
  return `.${kept}.${pid}.${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
}

/** Whether `name` (one path component) is an atomic write's temp file, of this or an older yoi. */
export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith(TEMP_SUFFIX);
}

/** The pid of the process that writes (or wrote) the temp file `name`; `undefined` if it is not one. */
export function tempFileWriter(name: string): number | undefined {
  const m = TEMP_NAME.exec(name);
  return m ? Number(m[1]) : undefined;
}
