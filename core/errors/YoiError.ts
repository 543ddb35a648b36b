import type { ErrorCode } from './codes.js';

/**
 * Base of every error yoi reports on purpose. `code` is one of `ERROR_CODES`; the message is
 * one readable line (the CLI prints it as is, without a stack trace).
 */
export class YoiError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'YoiError';
    this.code = code;
  }
}

/**
 * True for a YoiError, including one thrown by another copy of yoi (a config file may import
 * a different installed copy, or run in another realm), where `instanceof` would fail.
 */
export function isYoiError(value: unknown): value is YoiError {
  const code = typeof value === 'object' && value !== null ? (value as { code?: unknown }).code : undefined;
  return typeof code === 'string' && code.startsWith('YOI_ERR_') && typeof (value as Error).message === 'string';
}
