import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { YoiError, openOwnFile } from '../../core/api.js';

/** Shortest token accepted from an environment variable (a generated one has 43 characters). */
export const MIN_TOKEN_CHARS = 16;

/**
 * A token at least this long (every generated one: 43 characters of 32 random bytes) is not found
 * by guessing at any rate a network allows, so failed attempts need not lock its holder out.
 */
export const GUESS_PROOF_CHARS = 32;

const TOKEN = /^[A-Za-z0-9_-]{32,512}$/;

/** Where a listener's token comes from, for the start note and errors. */
export interface PodToken {
  readonly token: string;
  /** The token file, or `$VAR`. */
  readonly source: string;
}

/** A token from `tokenEnv`: set, and long enough to be worth something. */
export function tokenFromEnv(name: string, env: NodeJS.ProcessEnv = process.env): PodToken {
  const value = env[name]?.trim();
  if (!value)
    throw new YoiError('YOI_ERR_TOKEN', `no usable token: the environment variable ${name} (--token-env) is not set`);
  if (value.length < MIN_TOKEN_CHARS)
    throw new YoiError(
      'YOI_ERR_TOKEN',
      `no usable token: $${name} is shorter than ${MIN_TOKEN_CHARS} characters; use a long random one (openssl rand -base64 32)`,
    );
  return { token: value, source: `$${name}` };
}

/**
 * The pod's token file `<pod dir>/token`: read when it exists (it must be the user's own regular
 * file, not a link, readable by nobody else), else made now — 32 random bytes, base64url,
 * created exclusively with mode 0600 in the pod's verified directory, so a token survives
 * restarts and every client configured with it keeps working.
 */
export function podTokenFile(podDir: string): PodToken {
  const file = path.join(podDir, 'token');
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = readTokenFile(file);
    if (existing) return { token: existing, source: file };
    const token = crypto.randomBytes(32).toString('base64url');
    let fd: number;
    try {
      fd = fs.openSync(
        file,
        fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW,
        0o600,
      );
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') continue; // made meanwhile: read that one
      throw new YoiError('YOI_ERR_TOKEN', `no usable token: cannot create ${file}: ${(e as Error).message}`);
    }
    try {
      fs.fchmodSync(fd, 0o600); // whatever the umask
      fs.writeSync(fd, `${token}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    return { token, source: file };
  }
  throw new YoiError('YOI_ERR_TOKEN', `no usable token: ${file} keeps changing; remove it and start again`);
}

function readTokenFile(file: string): string | undefined {
  const fd = openOwnFile(file, { what: 'token file', fix: 'remove it (a new token is made at the next start)' });
  if (fd === undefined) return undefined;
  try {
    const st = fs.fstatSync(fd);
    if ((st.mode & 0o077) !== 0) {
      throw new YoiError(
        'YOI_ERR_TOKEN',
        `no usable token: token file ${file} is readable by other users (mode 0${(st.mode & 0o777).toString(8)}): remove it (a new token is made at the next start)`,
      );
    }
    if (st.size > 4096)
      throw new YoiError('YOI_ERR_TOKEN', `no usable token: ${file} is not a token file (${st.size} bytes): remove it`);
    const text = fs.readFileSync(fd, 'utf8').trim();
    if (!TOKEN.test(text))
      throw new YoiError(
        'YOI_ERR_TOKEN',
        `no usable token: ${file} does not hold a token: remove it (a new token is made at the next start)`,
      );
    return text;
  } finally {
    fs.closeSync(fd);
  }
}
