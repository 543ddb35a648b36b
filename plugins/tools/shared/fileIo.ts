import { ToolRefusal } from '../../../core/api.js';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** Largest file Read, Write and Edit handle whole (they hash and rewrite whole files). */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;
/** How far a file is searched for a NUL byte to call it binary. */
const BINARY_SNIFF_BYTES = 8 * 1024;

/**
 * The bytes of a regular file at a canonical path, or `undefined` if it does not exist.
 * Directories, FIFOs, sockets and devices are refused before being opened (nothing blocks);
 * the opened file must be the one `stat`ed, so a swap in between is refused too.
 */
export async function readRegularFile(file: string): Promise<Buffer | undefined> {
  let stats: fs.Stats;
  try {
    stats = await fs.promises.stat(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  if (stats.isDirectory()) throw new ToolRefusal(`${file} is a directory (use Glob to list it)`);
  if (!stats.isFile()) throw new ToolRefusal(`${file} is not a regular file`);
  if (stats.size > MAX_FILE_BYTES) throw new ToolRefusal(`${file} is too large (${stats.size} bytes; limit ${MAX_FILE_BYTES}): use Grep to search it`);
  const handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.ino !== stats.ino || opened.dev !== stats.dev) throw new ToolRefusal(`${file} changed while being opened; try again`);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** A NUL byte near the start: not text. */
export function looksBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

/**
 * Replaces `file` atomically: the content goes to a temporary file in the same directory,
 * is flushed to disk, then renamed over the target, so a reader (or a crash) sees the old
 * file or the new one, never half of it. An existing file keeps its permission bits; missing
 * parent directories are created.
 */
export async function writeFileAtomic(file: string, content: Uint8Array, mode?: number): Promise<void> {
  const dir = path.dirname(file);
  await fs.promises.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.yoi-tmp`);
  const handle = await fs.promises.open(temp, 'wx', mode ?? 0o666);
  try {
    try {
      await handle.writeFile(content);
      if (mode !== undefined) await handle.chmod(mode); // the umask applied at open
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (e) {
    await fs.promises.rm(temp, { force: true });
    throw e;
  }
}
