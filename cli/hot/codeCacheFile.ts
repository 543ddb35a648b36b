import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { userCacheDir } from '../../core/config/userDirs.js';
import { ensureOwnDir, openOwnFile, type TrustLabel } from '../../core/pod/trustedPath.js';

/**
 * V8 code caches of the bundle (see loadBundle.ts), one file per key in `$XDG_CACHE_HOME/yoi/v8`
 * (else `~/.cache/yoi/v8`). Cached bytecode runs as code: the directory is checked like a
 * runtime directory, a file is read only through a descriptor that is the user's regular file,
 * writable by nobody else, and its payload only when its hash matches. Anything else is no cache.
 */

const LABEL: TrustLabel = {
  what: 'code cache',
  fix: 'remove it, or set XDG_CACHE_HOME to a directory you own',
};
const MAGIC = 'yoi-v8-cache 1\n';
/** Caches kept (one per bundle build, role, Node version and flag set): older ones are removed. */
const MAX_ENTRIES = 16;
/** A cache is ~1.5 MB; a larger file is not read. */
const MAX_BYTES = 64 * 1024 * 1024;

const sha256 = (...parts: (string | Uint8Array)[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
};

/** The cache directory, created 0700 when missing; undefined when it is not the user's own. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = path.join(userCacheDir(env), 'v8');
  try {
    ensureOwnDir(path.dirname(dir), LABEL);
    ensureOwnDir(dir, LABEL);
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * What a cache is valid for: the bundle (its bytes, or the identity `bundleIdentity` gives it),
 * the Node version and architecture, and the flags V8 runs with (V8 rejects a cache made under
 * other flags; separate files keep two flag sets from replacing each other's), and what the
 * process is (`role`: what it compiles).
 */
export function codeCacheKey(bundle: Uint8Array | string, role: string, env: NodeJS.ProcessEnv = process.env): string {
  const runtime = [role, process.version, process.arch, ...process.execArgv, env.NODE_OPTIONS ?? ''].join('\0');
  return sha256(typeof bundle === 'string' ? bundle : sha256(bundle), '\0', runtime).slice(0, 40);
}

/**
 * The bundle's identity for its cache key: the SHA-256 the build wrote next to it (hashing 3 MB
 * at every start cost ~3 ms) with the size and mtime of the file as read, so a bundle changed
 * after its build (or a digest file left from another build) does not match; without a digest
 * file, the hash of the bytes.
 */
export function bundleIdentity(file: string, source: Uint8Array, stat: { size: number; mtimeMs: number }): string {
  let digest: string | undefined;
  try {
    digest = fs.readFileSync(`${file}.sha256`, 'latin1').trim();
  } catch {
    // No digest: hash the bytes.
  }
  if (!digest || !/^[0-9a-f]{64}$/.test(digest)) return sha256(source);
  return `${digest}\0${source.length}\0${stat.size}\0${stat.mtimeMs}`;
}

export function codeCacheFile(dir: string, key: string): string {
  return path.join(dir, `${key}.bin`);
}

/** The cached data for `key` in `file`, or undefined when there is none fit to hand to V8. */
export function readCodeCache(file: string, key: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openOwnFile(file, LABEL);
    if (fd === undefined) return undefined;
    const { size } = fs.fstatSync(fd);
    if (size > MAX_BYTES) return undefined;
    const data = Buffer.alloc(size);
    let read = 0;
    while (read < size) {
      const n = fs.readSync(fd, data, read, size - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    return parse(data, key);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** `MAGIC`, the key and the payload's SHA-256 on lines of their own, then the payload. */
function parse(data: Buffer, key: string): Buffer | undefined {
  const head = `${MAGIC}${key}\n`;
  const start = head.length + 65;
  if (data.length <= start || data.toString('latin1', 0, head.length) !== head) return undefined;
  const payload = data.subarray(start);
  return data.toString('latin1', head.length, start - 1) === sha256(payload) ? payload : undefined;
}

/**
 * Writes the cache for `key` atomically (a new 0600 temp file, renamed over the old one: a
 * reader sees the old file or the new one, never part of one) and removes the oldest caches
 * beyond MAX_ENTRIES.
 */
export function writeCodeCache(dir: string, key: string, payload: Uint8Array): void {
  const file = codeCacheFile(dir, key);
  const tmp = path.join(dir, `.${key}.${process.pid}.tmp`);
  fs.rmSync(tmp, { force: true });
  try {
    fs.writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}${key}\n${sha256(payload)}\n`), payload]), {
      mode: 0o600,
      flag: 'wx',
    });
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  prune(dir, file);
}

function prune(dir: string, keep: string): void {
  const entries = fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.bin'))
    .slice(0, 1000)
    .map((name) => path.join(dir, name))
    .filter((file) => file !== keep)
    .map((file) => ({ file, mtime: fs.lstatSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { file } of entries.slice(MAX_ENTRIES - 1)) fs.rmSync(file, { force: true });
}
