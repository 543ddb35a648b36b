import crypto from 'node:crypto';

/** SHA-256 of a token: compared instead of the token so both sides always have 32 bytes. */
export function tokenDigest(token: string): Buffer {
  return crypto.createHash('sha256').update(token, 'utf8').digest();
}

/**
 * Whether an `Authorization` header carries the token: `Bearer <token>`, compared in constant
 * time (`timingSafeEqual` on equal-length digests, so neither content nor length leaks).
 */
export function bearerMatches(header: string | undefined, digest: Buffer): boolean {
  const match = /^Bearer +([^\s]{1,4096}) *$/i.exec(header ?? '');
  const given = tokenDigest(match?.[1] ?? '');
  return crypto.timingSafeEqual(given, digest) && match !== null;
}
