import { SegmentSchema, type Segment } from '../../core/protocol/index.js';
import type { Block } from './Block.js';

interface Item {
  type?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
  name?: string;
  arguments?: string;
  summary?: string;
  is_error?: boolean;
  segments?: unknown;
}

/** Fallback placeholders the pod puts in a user message for references it could not resolve. */
const PLACEHOLDER = /\[unresolved [a-z_]+: [^\]\n]*\]|\[unknown input: kind=[^\]\n]*\]/g;

/**
 * Transcript blocks for `history.items`. A user item carries the typed segments its client sent
 * (`segments`), so chips and refs come back from history. Items without them (from a pod that
 * does not send them) are shown with the typed segments of a `user_message` this client saw when
 * its inline text matches, else as the text the model saw. `typed` is matched in order.
 * Notifications (system items the pod wrapped as `[Notification]`) become notification blocks.
 */
export function historyToBlocks(
  items: readonly unknown[],
  typed: readonly (readonly Segment[])[],
  firstId: number,
): { blocks: Block[]; nextId: number } {
  const blocks: Block[] = [];
  let id = firstId;
  let nextTyped = 0;
  const tools = new Map<string, number>();
  for (const raw of items) {
    const item = (raw ?? {}) as Item;
    if (item.type === 'message') {
      const text = messageText(item.content);
      const own = item.role === 'user' ? decodeSegments(item.segments) : undefined;
      if (own) {
        const match = findTyped(typed, nextTyped, text);
        if (match >= 0) nextTyped = match + 1;
        blocks.push({ kind: 'user', id: id++, segments: own });
      } else if (item.role === 'user') {
        const match = findTyped(typed, nextTyped, text);
        if (match >= 0) {
          nextTyped = match + 1;
          blocks.push({ kind: 'user', id: id++, segments: typed[match] });
        } else blocks.push({ kind: 'user', id: id++, text });
      } else if (item.role === 'assistant') blocks.push({ kind: 'assistant', id: id++, text, done: true });
      else {
        const note = notificationMessage(text);
        blocks.push(
          note !== undefined ? { kind: 'notification', id: id++, text: note } : { kind: 'context', id: id++, text },
        );
      }
    } else if (item.type === 'tool_call') {
      tools.set(item.call_id ?? '', blocks.length);
      blocks.push({
        kind: 'tool',
        id: id++,
        callId: item.call_id ?? '',
        name: item.name ?? '?',
        args: item.arguments ?? '',
        state: 'incomplete',
      });
    } else if (item.type === 'tool_result') {
      const at = tools.get(item.call_id ?? '');
      const state = item.is_error ? 'error' : 'done';
      const result = {
        summary: item.summary ?? '',
        output: typeof item.content === 'string' ? item.content : undefined,
      };
      const call = at !== undefined ? blocks[at] : undefined;
      if (call?.kind === 'tool') blocks[at!] = { ...call, state, ...result };
      else blocks.push({ kind: 'tool', id: id++, callId: item.call_id ?? '', name: '?', args: '', state, ...result });
    }
  }
  return { blocks, nextId: id };
}

const NOTIFICATION_HEAD = '[Notification]\n';
const NOTIFICATION_TAIL = '\n\nThis is a notification, not a blocking request.';

/** The message of a notification item (as the pod wraps it for the model), else undefined. */
function notificationMessage(text: string): string | undefined {
  if (!text.startsWith(NOTIFICATION_HEAD)) return undefined;
  const body = text.slice(NOTIFICATION_HEAD.length);
  const tail = body.lastIndexOf(NOTIFICATION_TAIL);
  return tail >= 0 ? body.slice(0, tail) : body;
}

/** The item's own typed segments, when it carries a well-formed list of them. */
function decodeSegments(raw: unknown): Segment[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const out: Segment[] = [];
  for (const s of raw) {
    const r = SegmentSchema.safeParse(s);
    if (!r.success) return undefined;
    out.push(r.data);
  }
  return out;
}

/** The text a user message gets from its inline segments (text and pastes), as the pod builds it. */
export function inlineText(segments: readonly Segment[]): string {
  let text = '';
  for (const s of segments) {
    if (s.kind === 'text') text += s.content;
    else if (s.kind === 'paste') text += s.content;
  }
  return text;
}

function findTyped(typed: readonly (readonly Segment[])[], from: number, text: string): number {
  const withoutPlaceholders = text.replace(PLACEHOLDER, '');
  for (let i = from; i < typed.length; i++) {
    const inline = inlineText(typed[i]);
    if (inline === text || inline === withoutPlaceholders) return i;
  }
  return -1;
}

function messageText(content: unknown): string {
  if (!Array.isArray(content)) return typeof content === 'string' ? content : '';
  return content
    .map((p: { text?: unknown; refusal?: unknown }) =>
      typeof p?.text === 'string' ? p.text : typeof p?.refusal === 'string' ? p.refusal : '',
    )
    .join('');
}
