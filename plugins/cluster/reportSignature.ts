import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header naming the reporting pod. */
export const POD_HEADER = 'Yoi-Pod';
/** Header carrying the report's HMAC: the per-child secret never travels with a report. */
export const SIGNATURE_HEADER = 'Yoi-Sig';

/** HMAC-SHA256 of the report's bytes under the child's secret, hex. */
export function signReport(secret: string, payload: Uint8Array): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

/** Whether `signature` is the report's HMAC under `secret` (constant-time). */
export function verifyReport(secret: string, payload: Uint8Array, signature: string | undefined): boolean {
  if (!signature) return false;
  const expected = Buffer.from(signReport(secret, payload), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
