import type { ToolOutput } from './Tool.js';

/**
 * A call the tool refuses (out of scope, not read first, string not found ...): the model gets
 * the message as an `is_error` result and can correct itself. Unexpected failures (I/O errors)
 * are thrown as they are and reported by the pod as `Tool execution failed: ...`.
 */
export class ToolRefusal extends Error {
  override name = 'ToolRefusal';
}

/** Runs a tool body, turning a refusal into the error result the model reads. */
export async function refusalsAsResults(body: () => Promise<ToolOutput>): Promise<ToolOutput> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof ToolRefusal) return { summary: e.message, is_error: true };
    throw e;
  }
}
