import { isYoiError } from '../errors/YoiError.js';
import type { ToolOutput } from './Tool.js';

/**
 * A call the tool refuses (out of scope, not read first, string not found ...): the model gets
 * the message as an `is_error` result and can correct itself. Unexpected failures (I/O errors)
 * are thrown as they are and reported by the pod as `Tool execution failed: ...`.
 */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
}

/**
 * Runs a tool body, turning a refusal into the error result the model reads. A path that
 * changed while it was opened (`YOI_ERR_PATH_CHANGED`: someone swapped a directory) is one too.
 */
export async function refusalsAsResults(body: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof ToolRefusal || (isYoiError(e) && e.code === 'YOI_ERR_PATH_CHANGED'))
      return { summary: e.message, is_error: true };
    throw e;
  }
}
