import { describeContent } from './describeContent.js';
import type { ToolOutput } from '../../core/api.js';

const SUMMARY_CHARS = 200;

/**
 * An MCP `tools/call` result as a pod tool result: the content blocks as text (non-text ones as
 * labelled summaries), `structuredContent` when there is no content, `isError` as `is_error`.
 * The summary names `<server>/<tool>` and starts the result's first line.
 */
export function toolOutput(
  label: string,
  result: { content?: unknown; structuredContent?: unknown; isError?: unknown },
): ToolOutput {
  const blocks = Array.isArray(result.content) ? result.content : [];
  let content = blocks
    .map(describeContent)
    .filter((t) => t !== '')
    .join('\n');
  if (content === '' && result.structuredContent !== undefined) content = JSON.stringify(result.structuredContent);
  const isError = result.isError === true;
  const first =
    content
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  const head = first.length > SUMMARY_CHARS ? `${first.slice(0, SUMMARY_CHARS)}…` : first;
  const summary = isError
    ? `${label} failed${head ? `: ${head}` : ''}`
    : head
      ? `${label}: ${head}`
      : `${label}: no content`;
  return { summary, ...(content !== '' ? { content } : {}), ...(isError ? { is_error: true } : {}) };
}
