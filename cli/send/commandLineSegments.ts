import { SegmentSchema, decodeWith, type Segment } from '../../core/protocol/index.js';
import { YoiError } from '../../core/errors/YoiError.js';
import { pasteSegment } from '../inputSegments.js';

/** One piece of `yoi send`'s command line, in the order it was typed. */
export type SendToken =
  { type: 'text'; value: string } | { type: 'file' | 'knowledge' | 'workflow' | 'segment'; value: string };

/**
 * The segments of `yoi send`, in command-line order: text arguments (consecutive words joined
 * with spaces), `--file` → file_ref, `--knowledge` → knowledge_ref, `--workflow` →
 * workflow_invoke, `--segment '<json>'` → that segment; piped stdin as a paste right after the
 * message text (last when there is none). Segments are joined without a separator by the pod,
 * so text resuming after a reference starts with a space, and the text before a paste ends with
 * a newline.
 */
export function commandLineSegments(tokens: readonly SendToken[], stdin?: string): Segment[] {
  const segments: Segment[] = [];
  let lastText: { kind: 'text'; content: string } | undefined;
  let segmentNo = 0;
  for (const token of tokens) {
    if (token.type === 'text') {
      const previous = segments.at(-1);
      if (previous && previous === lastText) {
        lastText.content += ` ${token.value}`;
        continue;
      }
      lastText = { kind: 'text', content: lastText ? ` ${token.value}` : token.value };
      segments.push(lastText);
      continue;
    }
    if (token.type === 'file') segments.push({ kind: 'file_ref', path: token.value });
    else if (token.type === 'knowledge') segments.push({ kind: 'knowledge_ref', slug: token.value });
    else if (token.type === 'workflow') segments.push({ kind: 'workflow_invoke', slug: token.value });
    else segments.push(parseSegmentFlag(token.value, ++segmentNo));
  }
  if (stdin !== undefined && stdin !== '') {
    if (!lastText) segments.push(pasteSegment(stdin));
    else {
      // Right after the message: "review this diff" + the diff, whatever references follow.
      if (!lastText.content.endsWith('\n')) lastText.content += '\n';
      segments.splice(segments.indexOf(lastText) + 1, 0, pasteSegment(stdin));
    }
  }
  return segments;
}

/**
 * `--segment '<json>'`: any segment kind, as a JSON object with a string `kind`. Kinds yoi
 * knows are checked against their schema (the pod would refuse the whole run otherwise); other
 * kinds go as written, for the plugin that resolves them.
 */
export function parseSegmentFlag(json: string, n = 1): Segment {
  const where = `--segment #${n}`;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw new YoiError(
      'YOI_ERR_USAGE',
      `${where} is not valid JSON (${(e as Error).message}): give an object such as '{"kind":"ticket_ref","id":"T-1"}'`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new YoiError(
      'YOI_ERR_USAGE',
      `${where} must be a JSON object with a string "kind", got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value}`,
    );
  }
  if (typeof (value as { kind?: unknown }).kind !== 'string' || (value as { kind: string }).kind === '') {
    throw new YoiError(
      'YOI_ERR_USAGE',
      `${where} needs a string "kind" (the segment kind, e.g. "file_ref" or a plugin's kind)`,
    );
  }
  const decoded = decodeWith(SegmentSchema, value);
  if (!decoded.ok)
    throw new YoiError(
      'YOI_ERR_USAGE',
      `${where} is not a valid ${(value as { kind: string }).kind} segment: ${decoded.error}`,
    );
  return decoded.value;
}
